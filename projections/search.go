package projections

import (
	"encoding/binary"
	"slices"
	"strings"
	"sync/atomic"
	"unicode/utf8"
)

// searchIndex answers memdisc's query words from the objects' search
// texts (searchText) through their trigrams: a word of three bytes or
// more can only occur in a text that holds every trigram of the word, so
// the texts holding the word's rarest trigrams are the only candidates,
// and an exact check of every word on each candidate gives the answer a
// scan of every text gives. Words shorter than three bytes narrow
// nothing: a query of only such words checks every object.
//
// It is kept current by the manifest's apply (add and drop) and built at
// Open from the stored rows: nothing of it is stored. Documents are
// numbered in the order they are added and never renumbered until a
// compaction: a dropped or replaced object leaves its number dead (its
// postings stay, and no longer lead anywhere) until dead numbers outnumber
// live ones, and then the index is built again from the live objects.
type searchIndex struct {
	docs  []*object // by document number; nil when dropped
	live  int
	grams map[uint32]*postings
	// last is the latest answer of sorted, until the index changes
	// (add, drop and compact forget it). memdisc asks the same words again
	// and again of an index that seldom changes; the search and the sort
	// were half of its query's time.
	last atomic.Pointer[searchAnswer]
}

// searchAnswer is an answer of sorted: the words and the objects found,
// in List's order.
type searchAnswer struct {
	words []string
	objs  []*object
}

// postings is the ascending list of the documents holding one trigram,
// as varint deltas: most deltas take one byte, so the index costs about
// a byte per trigram of each text.
type postings struct {
	b    []byte
	last uint32 // the last document number in b
	n    int    // how many numbers b holds
}

// minCompact is the least number of dead documents that makes a
// compaction worth its cost.
const minCompact = 1024

func newSearchIndex() *searchIndex {
	return &searchIndex{grams: make(map[uint32]*postings)}
}

// add indexes o, which must not be indexed yet, and gives it a number.
func (x *searchIndex) add(o *object) {
	x.last.Store(nil)
	doc := uint32(len(x.docs))
	o.doc = doc
	x.docs = append(x.docs, o)
	x.live++
	fields := o.searchFields()
	for _, f := range fields {
		if !isASCII(f) {
			// Lower-casing may change the text's bytes: index the text
			// searchText builds.
			x.addGrams(doc, o.searchText(), false)
			return
		}
	}
	// The trigrams of searchText's text are those of its fields (no word
	// holds the line feeds between them), lower-cased byte by byte.
	for _, f := range fields {
		x.addGrams(doc, f, true)
	}
}

// addGrams adds doc to the postings of every trigram of text that holds no
// line feed, each lower-cased first if lower is set (text is ASCII then).
func (x *searchIndex) addGrams(doc uint32, text string, lower bool) {
	for i := 0; i+3 <= len(text); i++ {
		a, b, c := text[i], text[i+1], text[i+2]
		if a == '\n' || b == '\n' || c == '\n' {
			continue // no word holds a line feed
		}
		if lower {
			a, b, c = lowerASCII(a), lowerASCII(b), lowerASCII(c)
		}
		g := uint32(a)<<16 | uint32(b)<<8 | uint32(c)
		p := x.grams[g]
		if p == nil {
			p = &postings{}
			x.grams[g] = p
		} else if p.n > 0 && p.last == doc {
			continue // a trigram seen before in this text
		}
		delta := doc
		if p.n > 0 {
			delta = doc - p.last
		}
		p.b = binary.AppendUvarint(p.b, uint64(delta))
		p.last, p.n = doc, p.n+1
	}
}

// isASCII reports whether s is all ASCII.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// drop forgets o, which must be indexed; a compaction follows when dead
// numbers outnumber live ones.
func (x *searchIndex) drop(o *object) {
	if int(o.doc) >= len(x.docs) || x.docs[o.doc] != o {
		return
	}
	x.last.Store(nil)
	x.docs[o.doc] = nil
	x.live--
	if dead := len(x.docs) - x.live; dead >= minCompact && dead > x.live {
		x.compact()
	}
}

// compact builds the index again from its live documents.
func (x *searchIndex) compact() {
	live := make([]*object, 0, x.live)
	for _, o := range x.docs {
		if o != nil {
			live = append(live, o)
		}
	}
	x.docs, x.live, x.grams = nil, 0, make(map[uint32]*postings)
	x.last.Store(nil)
	for _, o := range live {
		x.add(o)
	}
}

// clip gives the document list and every posting list exactly the room
// they use: built by appending, each held up to as much again unused
// (0.7 of the 4.8 MB of posting lists of 50,000 objects loaded at Open).
func (x *searchIndex) clip() {
	if cap(x.docs) > len(x.docs) {
		x.docs = slices.Clone(x.docs)
	}
	for _, p := range x.grams {
		if cap(p.b) > len(p.b) {
			p.b = slices.Clone(p.b)
		}
	}
}

func trigram(s string) uint32 {
	return uint32(s[0])<<16 | uint32(s[1])<<8 | uint32(s[2])
}

// narrowBelow is the number of candidates under which further posting
// lists are not read: checking each of a few candidates exactly is
// cheaper than decoding another long list.
const narrowBelow = 32

// sorted returns what search does, in the order of sortObjects: the
// latest answer again when the words are the same and the index has not
// changed since. The objects are shared by every caller: none may change
// the slice. Readers may call it at once (the Store's read lock), never
// with add, drop or compact.
func (x *searchIndex) sorted(words []string) []*object {
	if a := x.last.Load(); a != nil && slices.Equal(a.words, words) {
		return a.objs
	}
	objs := x.search(words)
	sortObjects(objs)
	x.last.Store(&searchAnswer{words: slices.Clone(words), objs: objs})
	return objs
}

// search returns the objects whose search text holds every word (words
// lower-cased and not empty), in no particular order.
func (x *searchIndex) search(words []string) []*object {
	var lists []*postings
	for _, w := range words {
		for i := 0; i+3 <= len(w); i++ {
			p := x.grams[trigram(w[i:])]
			if p == nil {
				return nil // a trigram no text holds
			}
			lists = append(lists, p)
		}
	}
	var out []*object
	if len(lists) == 0 {
		for _, o := range x.docs {
			if o != nil && o.holdsAll(words) {
				out = append(out, o)
			}
		}
		return out
	}
	slices.SortFunc(lists, func(a, b *postings) int { return a.n - b.n })
	cand := lists[0].decode(nil)
	for _, p := range lists[1:] {
		if len(cand) < narrowBelow {
			break
		}
		if p == lists[0] {
			continue
		}
		cand = p.intersect(cand)
	}
	for _, d := range cand {
		if o := x.docs[d]; o != nil && o.holdsAll(words) {
			out = append(out, o)
		}
	}
	return out
}

// decode appends the document numbers of p to out.
func (p *postings) decode(out []uint32) []uint32 {
	out = slices.Grow(out, p.n)
	doc := uint32(0)
	for b, first := p.b, true; len(b) > 0; first = false {
		v, n := binary.Uvarint(b)
		b = b[n:]
		if first {
			doc = uint32(v)
		} else {
			doc += uint32(v)
		}
		out = append(out, doc)
	}
	return out
}

// intersect keeps, in place, the numbers of cand (ascending) that p holds.
func (p *postings) intersect(cand []uint32) []uint32 {
	keep := cand[:0]
	doc, b, first := uint32(0), p.b, true
	for _, c := range cand {
		for len(b) > 0 && (first || doc < c) {
			v, n := binary.Uvarint(b)
			b = b[n:]
			if first {
				doc, first = uint32(v), false
			} else {
				doc += uint32(v)
			}
		}
		if !first && doc == c {
			keep = append(keep, c)
		}
		if len(b) == 0 && (first || doc < c) {
			break
		}
	}
	return keep
}

// containsLower reports whether strings.ToLower(s) holds w, without
// lower-casing s when it is ASCII.
func containsLower(s, w string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return strings.Contains(strings.ToLower(s), w)
		}
	}
	for i := 0; i+len(w) <= len(s); i++ {
		j := 0
		for j < len(w) && lowerASCII(s[i+j]) == w[j] {
			j++
		}
		if j == len(w) {
			return true
		}
	}
	return false
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// containsAll reports whether text holds every word.
func containsAll(text string, words []string) bool {
	for _, w := range words {
		if !strings.Contains(text, w) {
			return false
		}
	}
	return true
}

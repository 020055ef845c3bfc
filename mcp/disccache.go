package mcp

import (
	"slices"
	"sync"
)

// memdisc's answers are kept encoded. An agent asks the same memdisc again
// and again of a catalog that seldom changes, and encoding the items and
// their listing was the larger part of the handler's own work (for 50
// items, 14 KiB of JSON and 6 KiB of listing). An answer is found by the
// result it encodes: the same discoverResult (every field of every item,
// the counts, the cursor, the hint) is the same bytes, so a change of the
// catalog, of a draft or of a team object that shows in the answer makes
// another result, which is encoded anew. Nothing has to say when the
// catalog changed, and a change that does not show in the answer keeps
// it.

// Bounds of the cache: a few answers (the sessions of one serve ask a few
// questions), none larger than discCacheMaxBytes (a memdisc of a few
// hundred items is encoded each time rather than held).
const (
	discCacheSize     = 4
	discCacheMaxBytes = 64 << 10
)

// discCache holds memdisc's latest answers, encoded.
type discCache struct {
	mu      sync.Mutex
	entries []*discEntry // the most recently used first
}

// discEntry is one answer: the result and its bytes. It encodes itself
// (jsonAppender, modelText) from those bytes.
type discEntry struct {
	res        discoverResult
	body, text []byte
}

// answer returns r as a result that encodes itself with the bytes of an
// equal result answered before, or encoded now and kept. r must not
// change after.
func (c *discCache) answer(r *discoverResult) *discEntry {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, e := range c.entries {
		if e.res.equal(r) {
			copy(c.entries[1:i+1], c.entries[:i])
			c.entries[0] = e
			putDiscItems(r.Items)
			return e
		}
	}
	e := &discEntry{res: *r, body: r.appendJSON(nil), text: r.appendText(nil)}
	if len(e.body)+len(e.text) <= discCacheMaxBytes {
		c.entries = slices.Insert(c.entries, 0, e)
		if len(c.entries) > discCacheSize {
			c.entries[discCacheSize] = nil
			c.entries = c.entries[:discCacheSize]
		}
	}
	return e
}

// appendJSON implements jsonAppender.
func (e *discEntry) appendJSON(dst []byte) []byte { return append(dst, e.body...) }

// appendText implements modelText.
func (e *discEntry) appendText(dst []byte) []byte { return append(dst, e.text...) }

// equal reports whether r and o are the same answer, field by field.
func (r *discoverResult) equal(o *discoverResult) bool {
	if r.Total != o.Total || r.Truncated != o.Truncated || r.NextCursor != o.NextCursor || r.Hint != o.Hint ||
		(r.InScope == nil) != (o.InScope == nil) || (r.InScope != nil && *r.InScope != *o.InScope) ||
		(r.Items == nil) != (o.Items == nil) || len(r.Items) != len(o.Items) {
		return false
	}
	for i := range r.Items {
		if !r.Items[i].equal(&o.Items[i]) {
			return false
		}
	}
	return true
}

// equal reports whether it and o are the same item, field by field.
func (it *discoverItem) equal(o *discoverItem) bool {
	return it.ID == o.ID && it.Kind == o.Kind && it.Path == o.Path && it.Name == o.Name && it.Group == o.Group &&
		it.Hash == o.Hash && it.Description == o.Description && it.HasDraft == o.HasDraft &&
		it.DraftStatus == o.DraftStatus && it.DraftReason == o.DraftReason &&
		sameStrings(it.Paths, o.Paths) && sameStrings(it.Matched, o.Matched) &&
		it.Source == o.Source && it.Revision == o.Revision && it.Shadows == o.Shadows
}

// sameStrings reports whether a and b are both nil or hold the same
// strings.
func sameStrings(a, b []string) bool {
	return (a == nil) == (b == nil) && slices.Equal(a, b)
}

// memdisc builds its result's items in a slice from discItems: a result
// equal to an answer kept is dropped at once, and its slice (50 items are
// 13 KiB) goes back for the next call. A result encoded anew keeps its
// slice in the cache.
var discItems sync.Pool // *[]discoverItem, empty

// maxPooledItems is the most items a pooled slice holds: memdisc's
// default limit.
const maxPooledItems = defaultDiscoverLimit

// newDiscItems returns an empty slice with room for n items.
func newDiscItems(n int) []discoverItem {
	if p, ok := discItems.Get().(*[]discoverItem); ok && cap(*p) >= n {
		return *p
	}
	return make([]discoverItem, 0, max(n, 64))
}

// putDiscItems gives items back to discItems, emptied; nothing may use it
// after.
func putDiscItems(items []discoverItem) {
	if cap(items) == 0 || cap(items) > maxPooledItems {
		return
	}
	clear(items)
	items = items[:0]
	discItems.Put(&items)
}

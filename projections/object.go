package projections

import (
	"strings"

	"github.com/clumsies/clumsies/content"
)

// object is the in-memory form of a published object: the head of its
// stored row (objectrow.go: its metadata and the ids of its constraints,
// never its body nor the texts of its constraints, which stay in pebble
// and are read on demand: Store.published), whose fields are read out of
// it when asked for. Each field is a part of the head, so an object costs
// one string and this small header: at 50,000 objects a struct of string
// fields per object was a third of what the manifest held. A value stored
// in the model never changes; a publish stores a new one.
type object struct {
	head string // checked whole when the object was made (headEnd)
	doc  uint32 // its number in the search index
}

// The string fields of a head, in their stored order.
const (
	fieldID = iota
	fieldKind
	fieldPath
	fieldName
	fieldGroup
	fieldHash
	fieldDescription
	fieldScope // the globs of the front matter's paths, joined with "\n"
	stringFields
)

// newObject returns the object of a row's head: v up to headEnd, copied.
func newObject(v []byte) (*object, error) {
	end, err := headEnd(v)
	if err != nil {
		return nil, err
	}
	return &object{head: string(v[:end])}, nil
}

// skip returns where the head's n-th string field's length starts
// (n == stringFields: where the sequence starts).
func (o *object) skip(n int) int {
	pos := 1
	for range n {
		l, k := o.length(pos)
		pos += k + l
	}
	return pos
}

// length reads the length of the string field at pos of the head and
// returns it with the bytes it takes (most take one).
func (o *object) length(pos int) (l, k int) {
	if c := o.head[pos]; c < 0x80 {
		return int(c), 1
	}
	v, k := uvarintString(o.head[pos:])
	return int(v), k
}

// field returns the head's i-th string field.
func (o *object) field(i int) string {
	pos := o.skip(i)
	l, k := o.length(pos)
	return o.head[pos+k : pos+k+l]
}

func (o *object) ID() string          { return o.field(fieldID) }
func (o *object) Kind() content.Kind  { return content.Kind(o.field(fieldKind)) }
func (o *object) Path() string        { return o.field(fieldPath) }
func (o *object) Name() string        { return o.field(fieldName) }
func (o *object) Group() string       { return o.field(fieldGroup) }
func (o *object) Hash() string        { return o.field(fieldHash) }
func (o *object) Description() string { return o.field(fieldDescription) }

// seq returns the sequence of the catalog.publish event that published
// the object.
func (o *object) seq() uint64 {
	v, _ := uvarintString(o.head[o.skip(stringFields):])
	return v
}

// ns returns the namespace of the object's kind.
func (o *object) ns() content.Namespace { return content.NamespaceOf(o.Kind()) }

// fields returns every string field of the head at once, for callers that
// need several (one walk of the head instead of one per field).
func (o *object) fields() (f [stringFields]string) {
	pos := 1
	for i := range f {
		l, k := o.length(pos)
		pos += k
		f[i] = o.head[pos : pos+l]
		pos += l
	}
	return f
}

// constraints returns the number of the object's constraints and where
// their ids start in the head.
func (o *object) constraints() (n, pos int) {
	pos = o.skip(stringFields)
	_, k := uvarintString(o.head[pos:])
	pos += k
	c, k := uvarintString(o.head[pos:])
	return int(c), pos + k
}

// constraintCount returns the number of the object's constraints.
func (o *object) constraintCount() int {
	n, _ := o.constraints()
	return n
}

// constraintIDs returns the ids of the object's constraints, in their
// order in the body; nil when it has none. The ids are parts of the head.
func (o *object) constraintIDs() []string {
	n, pos := o.constraints()
	if n == 0 {
		return nil
	}
	ids := make([]string, 0, n)
	for range n {
		l, k := o.length(pos)
		pos += k
		ids = append(ids, o.head[pos:pos+l])
		pos += l
	}
	return ids
}

// api returns the object's API form, without its body and constraints.
func (o *object) api() Object {
	f := o.fields()
	return Object{
		ID: f[fieldID], Kind: content.Kind(f[fieldKind]), Path: f[fieldPath], Name: f[fieldName],
		Group: f[fieldGroup], Hash: f[fieldHash], Description: f[fieldDescription], Paths: splitScope(f[fieldScope]), Seq: o.seq(),
	}
}

// searchText returns the text memdisc's query words are looked for in
// (the package's searchText of its fields). It is built when asked for,
// not kept.
func (o *object) searchText() string {
	f := o.fields()
	return searchText(f[fieldID], f[fieldPath], f[fieldName], f[fieldGroup], f[fieldDescription])
}

// searchFields returns the fields searchText joins, in its order, with
// "" for name and group when the path holds them and so searchText leaves
// them out.
func (o *object) searchFields() [5]string {
	f := o.fields()
	out := [5]string{f[fieldID], f[fieldPath], f[fieldName], f[fieldGroup], f[fieldDescription]}
	for i := 2; i <= 3; i++ {
		if strings.Contains(out[1], out[i]) {
			out[i] = ""
		}
	}
	return out
}

// holdsAll reports whether o's search text holds every word (each
// lower-cased and free of line feeds), as containsAll(o.searchText(),
// words) does, without building the text.
func (o *object) holdsAll(words []string) bool {
	f := o.fields()
	for _, w := range words {
		if !containsLower(f[fieldID], w) && !containsLower(f[fieldPath], w) && !containsLower(f[fieldName], w) &&
			!containsLower(f[fieldGroup], w) && !containsLower(f[fieldDescription], w) {
			return false
		}
	}
	return true
}

package projections

import (
	"encoding/binary"
	"errors"
	"strings"
)

// An object row (m/o/<id>) is binary, so that Open decodes a catalog of
// 50,000 objects in milliseconds and without copying what it does not
// keep: a format byte, then the fields as uvarint-length strings and
// uvarints, the constraints' ids before their names, texts and hashes.
//
//	0x02 id kind path name group hash description scope seq:uvarint
//	n:uvarint id×n (name text textHash)×n
//
// scope is the globs of the object's front matter "paths" (rules and
// workflows), joined with line feeds, which no glob holds.
//
// Open keeps everything up to the constraint ids (the head) as one string
// out of which an object's fields are read (object.go); the texts are read
// only when a caller asks for them (decodeObjectRow).
const objectRowFormat = 2

var errBadObjectRow = errors.New("bad object row")

// encode returns the stored bytes of r.
func (r objectRow) encode() []byte {
	size := 16
	scope := strings.Join(r.Paths, "\n")
	for _, s := range []string{r.ID, r.Kind, r.Path, r.Name, r.Group, r.Hash, r.Description, scope} {
		size += len(s) + 2
	}
	for _, c := range r.Constraints {
		size += len(c.ID) + len(c.Name) + len(c.Text) + len(c.TextHash) + 8
	}
	b := make([]byte, 0, size)
	b = append(b, objectRowFormat)
	for _, s := range []string{r.ID, r.Kind, r.Path, r.Name, r.Group, r.Hash, r.Description, scope} {
		b = appendString(b, s)
	}
	b = binary.AppendUvarint(b, r.Seq)
	b = binary.AppendUvarint(b, uint64(len(r.Constraints)))
	for _, c := range r.Constraints {
		b = appendString(b, c.ID)
	}
	for _, c := range r.Constraints {
		b = appendString(b, c.Name)
		b = appendString(b, c.Text)
		b = appendString(b, c.TextHash)
	}
	return b
}

func appendString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

// rowReader reads the fields of a row out of one string, keeping the
// first error.
type rowReader struct {
	s   string
	pos int
	err error
}

func (r *rowReader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := uvarintString(r.s[r.pos:])
	if n <= 0 {
		r.err = errBadObjectRow
		return 0
	}
	r.pos += n
	return v
}

func (r *rowReader) str() string {
	n := r.uvarint()
	if r.err != nil || n > uint64(len(r.s)-r.pos) {
		r.err = errBadObjectRow
		return ""
	}
	s := r.s[r.pos : r.pos+int(n)]
	r.pos += int(n)
	return s
}

// uvarintString is binary.Uvarint over a string.
func uvarintString(s string) (uint64, int) {
	var v uint64
	for i := 0; i < len(s) && i < binary.MaxVarintLen64; i++ {
		c := s[i]
		if c < 0x80 {
			if i == binary.MaxVarintLen64-1 && c > 1 {
				return 0, -1
			}
			return v | uint64(c)<<(7*i), i + 1
		}
		v |= uint64(c&0x7f) << (7 * i)
	}
	return 0, 0
}

// readHead reads the fields up to the constraint ids into h and returns
// the reader, positioned at the constraints' names.
func readHead(s string, h *objectHead) *rowReader {
	r := &rowReader{s: s}
	if len(s) == 0 || s[0] != objectRowFormat {
		r.err = errBadObjectRow
		return r
	}
	r.pos = 1
	h.ID, h.Kind, h.Path, h.Name = r.str(), r.str(), r.str(), r.str()
	h.Group, h.Hash, h.Description, h.Scope = r.str(), r.str(), r.str(), r.str()
	h.Seq = r.uvarint()
	n := r.uvarint()
	if n > uint64(len(s)) {
		r.err = errBadObjectRow
		return r
	}
	if n > 0 {
		h.ConstraintIDs = make([]string, 0, n)
	}
	for range n {
		h.ConstraintIDs = append(h.ConstraintIDs, r.str())
	}
	return r
}

// headEnd returns where the constraint ids of a stored row end.
func headEnd(v []byte) (int, error) {
	if len(v) == 0 || v[0] != objectRowFormat {
		return 0, errBadObjectRow
	}
	pos := 1
	next := func() uint64 {
		x, n := binary.Uvarint(v[pos:])
		if n <= 0 {
			pos = -1
			return 0
		}
		pos += n
		return x
	}
	skip := func() {
		if pos < 0 {
			return
		}
		n := next()
		if pos < 0 || n > uint64(len(v)-pos) {
			pos = -1
			return
		}
		pos += int(n)
	}
	for range stringFields {
		skip()
	}
	if pos < 0 {
		return 0, errBadObjectRow
	}
	next() // seq
	if pos < 0 {
		return 0, errBadObjectRow
	}
	n := next()
	if pos < 0 || n > uint64(len(v)) {
		return 0, errBadObjectRow
	}
	for range n {
		skip()
	}
	if pos < 0 {
		return 0, errBadObjectRow
	}
	return pos, nil
}

// decodeObjectRow decodes a whole stored row.
func decodeObjectRow(v []byte) (objectRow, error) {
	var h objectHead
	r := readHead(string(v), &h)
	row := objectRow{ID: h.ID, Kind: h.Kind, Path: h.Path, Name: h.Name, Group: h.Group, Hash: h.Hash, Description: h.Description, Paths: splitScope(h.Scope), Seq: h.Seq}
	for _, id := range h.ConstraintIDs {
		c := constraintRow{ID: id}
		c.Name, c.Text, c.TextHash = r.str(), r.str(), r.str()
		row.Constraints = append(row.Constraints, c)
	}
	if r.err != nil || r.pos != len(r.s) {
		return objectRow{}, errBadObjectRow
	}
	return row, nil
}

// splitScope returns the globs of a stored scope field; nil for none.
func splitScope(scope string) []string {
	if scope == "" {
		return nil
	}
	return strings.Split(scope, "\n")
}

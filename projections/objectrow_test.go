package projections

import (
	"reflect"
	"slices"
	"testing"
)

func sampleRow() objectRow {
	return objectRow{
		ID: "p-0123456789abcdef0123456789abcdef", Kind: "rule", Path: "go/STYLE.md", Name: "STYLE", Group: "go",
		Hash: "sha256:00ff", Description: "How we write Go: é and 日本", Paths: []string{"**/*.go", "go.mod"}, Seq: 1 << 40,
		Constraints: []constraintRow{
			{ID: "Style/1", Name: "Style", Text: "Run gofmt.", TextHash: "sha256:aa"},
			{ID: "Style/2", Name: "Style", Text: "", TextHash: "sha256:bb"},
		},
	}
}

func TestObjectRow_RoundTrip(t *testing.T) {
	for _, r := range []objectRow{sampleRow(), {ID: "META_PROMPT.md", Kind: "mpf", Path: "META_PROMPT.md", Name: "META_PROMPT", Hash: "h"}} {
		b := r.encode()
		got, err := decodeObjectRow(b)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, r) {
			t.Fatalf("decoded %+v, want %+v", got, r)
		}
		if _, err := newObject(b); err != nil {
			t.Fatal(err)
		}
	}
}

// Every truncation and every single changed byte of a row is an error
// or decodes to some row; none panics, and a truncated row is refused.
func TestObjectRow_Damaged(t *testing.T) {
	b := sampleRow().encode()
	for n := range len(b) {
		if _, err := decodeObjectRow(b[:n]); err == nil {
			t.Fatalf("row cut to %d of %d bytes decoded", n, len(b))
		}
	}
	for i := range b {
		for _, x := range []byte{0x00, 0x7f, 0x80, 0xff} {
			d := slices.Clone(b)
			d[i] = x
			_, _ = decodeObjectRow(d)
			if o, err := newObject(d); err == nil {
				_ = o.api()
				_ = o.constraintIDs()
			}
		}
	}
	if _, err := newObject(append([]byte{objectRowFormat + 1}, b[1:]...)); err == nil {
		t.Fatal("a row of another format decoded")
	}
}

func FuzzObjectRow(f *testing.F) {
	f.Add(sampleRow().encode())
	f.Add([]byte{objectRowFormat})
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := decodeObjectRow(b)
		if err != nil {
			return
		}
		if again, err := decodeObjectRow(r.encode()); err != nil || !reflect.DeepEqual(again, r) {
			t.Fatalf("re-encoded row decodes to %+v, %v; want %+v", again, err, r)
		}
		o, err := newObject(b)
		if err != nil {
			t.Fatalf("a row that decodes whole has a bad head: %v", err)
		}
		if got := o.api(); got.ID != r.ID || got.Description != r.Description || got.Seq != r.Seq {
			t.Fatalf("the object of a row reads %+v, the row %+v", got, r)
		}
	})
}

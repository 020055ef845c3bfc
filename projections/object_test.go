package projections

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// testObject returns the in-memory object of r's stored row.
func testObject(r objectRow) *object {
	o, err := newObject(r.encode())
	if err != nil {
		panic(err)
	}
	return o
}

// An object reads back every field of the row it was made of, and
// nothing of its constraints but their ids.
func TestObject_FieldsOfItsRow(t *testing.T) {
	for _, r := range []objectRow{
		sampleRow(),
		{ID: "META_PROMPT.md", Kind: "mpf", Path: "META_PROMPT.md", Name: "META_PROMPT", Hash: "h"},
		{ID: "", Kind: "", Path: "", Seq: 0},
		{ID: "p-1", Kind: "rule", Path: "a/B.md", Name: "B", Group: "a", Hash: "sha256:1", Description: string(make([]byte, 70_000)), Seq: 1<<63 + 5,
			Constraints: []constraintRow{{ID: "B/1", Text: string(make([]byte, 200))}}},
	} {
		o := testObject(r)
		got := []string{o.ID(), string(o.Kind()), o.Path(), o.Name(), o.Group(), o.Hash(), o.Description()}
		want := []string{r.ID, r.Kind, r.Path, r.Name, r.Group, r.Hash, r.Description}
		if !slices.Equal(got, want) {
			t.Errorf("fields %q, want %q", got, want)
		}
		want = append(want, strings.Join(r.Paths, "\n"))
		if f := o.fields(); !slices.Equal(f[:], want) {
			t.Errorf("fields() %q, want %q", f, want)
		}
		if o.seq() != r.Seq {
			t.Errorf("seq %d, want %d", o.seq(), r.Seq)
		}
		var ids []string
		for _, c := range r.Constraints {
			ids = append(ids, c.ID)
		}
		if got := o.constraintIDs(); !slices.Equal(got, ids) || o.constraintCount() != len(ids) {
			t.Errorf("constraint ids %q (%d), want %q", got, o.constraintCount(), ids)
		}
		api := r.api()
		api.Constraints = nil
		if got := o.api(); !reflect.DeepEqual(got, api) {
			t.Errorf("api %+v, want %+v", got, api)
		}
		for _, c := range r.Constraints {
			if len(c.Text) > 0 && len(o.head) >= len(r.encode()) {
				t.Errorf("the object holds its constraints' texts (%d of %d bytes)", len(o.head), len(r.encode()))
			}
		}
	}
}

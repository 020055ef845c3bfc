package projections

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// sortObjects puts objects in the order compareObjects gives, ties of
// namespace and path broken by id, whatever order they come in.
func TestSortObjects_OrderOfCompareObjects(t *testing.T) {
	kinds := []string{"rule", "workflow", "context"}
	paths := []string{"a.md", "g01/B.md", "g01/A.md", "workflow/X.md", "Z.md"}
	var objs []*object
	for i := range 60 {
		objs = append(objs, testObject(objectRow{ID: fmt.Sprintf("p-%02d", 59-i), Kind: kinds[i%3], Path: paths[i%5], Hash: "h"}))
	}
	want := slices.Clone(objs)
	slices.SortFunc(want, compareObjects)
	r := rand.New(rand.NewPCG(1, 2))
	for range 20 {
		got := slices.Clone(objs)
		r.Shuffle(len(got), func(i, j int) { got[i], got[j] = got[j], got[i] })
		sortObjects(got)
		if !slices.Equal(got, want) {
			t.Fatalf("sortObjects gave another order than compareObjects")
		}
	}
}

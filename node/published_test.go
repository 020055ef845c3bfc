package node

import (
	"fmt"
	"testing"

	"github.com/clumsies/clumsies/catalog"
	"github.com/clumsies/clumsies/content"
)

// TestPublished_Add checks that a Published made of the changes of two
// rounds counts them all, describes the first FirstChanges, and holds
// exactly their sequences, with other writers' events between them.
func TestPublished_Add(t *testing.T) {
	change := func(i int) catalog.Change {
		c := catalog.Change{ID: fmt.Sprintf("p-%d", i), File: content.File{Kind: content.KindRule, Path: fmt.Sprintf("g/R%03d.md", i)}}
		if i%5 == 4 {
			c.Remove = &catalog.Published{ID: c.ID, Kind: content.KindRule, Path: c.File.Path}
		}
		return c
	}
	// Sequences 10-29 and 31-39 in the first round (30 is another
	// writer's), 41-60 in the second (40 is).
	var first, second Published
	want := map[uint64]bool{}
	i := 0
	for seq := uint64(10); seq < 40; seq++ {
		if seq == 30 {
			continue
		}
		first.add(seq, change(i))
		want[seq] = true
		i++
	}
	for seq := uint64(41); seq <= 60; seq++ {
		second.add(seq, change(i))
		want[seq] = true
		i++
	}
	var p Published
	p.merge(first)
	p.merge(second)

	if p.Count != i {
		t.Fatalf("Count: got %d, want %d", p.Count, i)
	}
	if len(p.First) != FirstChanges {
		t.Fatalf("First: got %d changes, want %d", len(p.First), FirstChanges)
	}
	for k, c := range p.First {
		w := PublishedChange{Kind: "rule", Path: fmt.Sprintf("g/R%03d.md", k), ID: fmt.Sprintf("p-%d", k), Removed: k%5 == 4}
		if c != w {
			t.Fatalf("First[%d]: got %+v, want %+v", k, c, w)
		}
	}
	if got, want := fmt.Sprint(p.Runs), "[{10 29} {31 39} {41 60}]"; got != want {
		t.Fatalf("Runs: got %s, want %s", got, want)
	}
	for seq := uint64(0); seq <= 70; seq++ {
		if got := p.Holds(seq); got != want[seq] {
			t.Fatalf("Holds(%d): got %t, want %t", seq, got, want[seq])
		}
	}
	if a, b := p.Bounds(); a != 10 || b != 60 {
		t.Fatalf("Bounds: got %d, %d; want 10, 60", a, b)
	}
	if a, b := (Published{}).Bounds(); a != 0 || b != 0 || (Published{}).Holds(0) {
		t.Fatalf("an empty Published: Bounds %d, %d, holds 0: %t", a, b, (Published{}).Holds(0))
	}
}

package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/node"
)

func TestPublishReport_NamesAtMostSomeChanges(t *testing.T) {
	// A publish of n changes describes the first node.FirstChanges.
	publish := func(n int) node.Published {
		p := node.Published{Count: n}
		for i := range min(n, node.FirstChanges) {
			p.First = append(p.First, node.PublishedChange{Kind: "rule", Path: fmt.Sprintf("g/R%03d.md", i), ID: fmt.Sprintf("p-%d", i), Removed: i == 1})
		}
		return p
	}
	var out strings.Builder
	r := &publishReport{w: &out}

	r.report(publish(3), nil)
	if got, want := out.String(), "clumsies: published 3 content change(s): g/R000.md, removed g/R001.md, g/R002.md\n"; got != want {
		t.Fatalf("report of 3 changes:\n got %q\nwant %q", got, want)
	}

	out.Reset()
	r.report(publish(node.FirstChanges+7), nil)
	got := out.String()
	last := fmt.Sprintf("g/R%03d.md", node.FirstChanges-1)
	if !strings.HasPrefix(got, fmt.Sprintf("clumsies: published %d content change(s): g/R000.md, ", node.FirstChanges+7)) ||
		!strings.Contains(got, last+", and 7 more (`clumsies events` lists them)\n") ||
		strings.Contains(got, fmt.Sprintf("g/R%03d.md", node.FirstChanges)) {
		t.Fatalf("report of %d changes names the first %d and counts the rest; got %q", node.FirstChanges+7, node.FirstChanges, got)
	}
}

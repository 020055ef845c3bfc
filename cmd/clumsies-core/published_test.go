package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/events"
)

func TestPublishReport_NamesAtMostSomeChanges(t *testing.T) {
	publish := func(n int) []events.Event {
		var evs []events.Event
		for i := range n {
			ev, err := events.New("ws-test", events.TypeCatalogPublish, events.PublishData{Path: fmt.Sprintf("g/R%03d.md", i)})
			if err != nil {
				t.Fatal(err)
			}
			evs = append(evs, ev)
		}
		return evs
	}
	var out strings.Builder
	r := &publishReport{w: &out}

	r.report(publish(3), nil)
	if got, want := out.String(), "clumsies: published 3 content change(s): g/R000.md, g/R001.md, g/R002.md\n"; got != want {
		t.Fatalf("report of 3 changes:\n got %q\nwant %q", got, want)
	}

	out.Reset()
	r.report(publish(reportedChanges+7), nil)
	got := out.String()
	last := fmt.Sprintf("g/R%03d.md", reportedChanges-1)
	if !strings.HasPrefix(got, fmt.Sprintf("clumsies: published %d content change(s): g/R000.md, ", reportedChanges+7)) ||
		!strings.Contains(got, last+", and 7 more (`clumsies events` lists them)\n") ||
		strings.Contains(got, fmt.Sprintf("g/R%03d.md", reportedChanges)) {
		t.Fatalf("report of %d changes names the first %d and counts the rest; got %q", reportedChanges+7, reportedChanges, got)
	}
}

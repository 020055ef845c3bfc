package ui_test

import (
	"testing"
	"time"

	"github.com/clumsies/clumsies/events"
)

// TestBrowser_DayChartsHaveEveryDay seeds refs ten days ago, three days
// ago and today, and checks that the overview's and the rule's day
// charts in Chromium have a slot for each of the eleven days, the quiet
// ones empty, not three bars side by side.
func TestBrowser_DayChartsHaveEveryDay(t *testing.T) {
	b := newBackend(t)
	const id = "p-00000000000000000000000000000001"
	b.publish(t, id, "rules/style.md", "# Style\n\n## Constraints\n\n1. Be brief.\n")
	today := time.Now().UTC()
	for _, back := range []int{10, 3, 0} {
		b.append(t, events.TypeRefer, events.ReferData{Refs: []events.Ref{{RuleID: id, ConstraintID: "Constraints/1"}}}, today.AddDate(0, 0, -back))
	}
	p := newPage(t, b.serve(t))

	// The overview draws three series (events, tool calls, refs): a day
	// is three rects; the publish is today too.
	p.open("/", "overview")
	if n := eval[int](p, `document.querySelectorAll("svg.chart")[0].querySelectorAll("rect").length`); n != 3*11 {
		t.Errorf("overview: the day chart has %d bars, want 33 (11 days, 3 series)", n)
	}
	p.open("/rules/"+id, "rule")
	days := eval[[]string](p, `[...document.querySelectorAll('svg.chart:not([data-chart]) rect title')].map((t) => t.textContent.slice(0, 10))`)
	if len(days) != 11 || days[0] != today.AddDate(0, 0, -10).Format("2006-01-02") || days[10] != today.Format("2006-01-02") {
		t.Errorf("rule page: the refs chart has days %q, want the 11 from ten days ago to today", days)
	}
}

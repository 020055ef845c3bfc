package ui_test

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/clumsies/clumsies/events"
)

// TestBrowser_OverviewChart opens, in Chromium, the overview of 30 days
// with refs on some: its chart draws refs per day beside events and tool
// calls (a bar each day, their sum the overview's refs) and keeps its
// last day's label inside the chart, at a laptop's width and a phone's.
func TestBrowser_OverviewChart(t *testing.T) {
	b := newBackend(t)
	const id = "p-00000000000000000000000000000061"
	b.publish(t, id, "rules/style.md", "# Style\n\n## Naming\n\n1. Say what it is.\n")
	now := time.Now().UTC()
	for _, ago := range []int{1, 5, 5, 20} {
		b.append(t, events.TypeRefer, events.ReferData{Refs: []events.Ref{{RuleID: id, ConstraintID: "Naming/1"}}}, now.AddDate(0, 0, -ago))
	}
	p := newPage(t, b.serve(t))
	for _, width := range []int64{1366, 390} {
		if err := chromedp.Do(p.ctx, chromedp.EmulateViewport(width, 900)); err != nil {
			t.Fatal(err)
		}
		p.open("/?days=30", "overview")
		if n := eval[int](p, `document.querySelector("svg.chart").querySelectorAll("rect.bar3").length`); n != 30 {
			t.Errorf("%d px: the chart has %d refs bars, want one for each of the 30 days", width, n)
		}
		if sum := eval[int](p, `[...document.querySelectorAll("svg.chart rect.bar3 title")].reduce((a, t) => a + Number(t.textContent.split(": ").pop()), 0)`); sum != 4 {
			t.Errorf("%d px: the refs bars sum %d refs, want 4", width, sum)
		}
		if out := eval[float64](p, `((svg) => { const l = [...svg.querySelectorAll("[data-x-label]")].pop().getBoundingClientRect(); return l.right - svg.getBoundingClientRect().right; })(document.querySelector("svg.chart"))`); out > 0.5 {
			t.Errorf("%d px: the last day's label ends %.1f px past the chart", width, out)
		}
	}
}

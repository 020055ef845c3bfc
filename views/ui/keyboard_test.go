package ui_test

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/clumsies/clumsies/events"
)

// TestBrowser_SortWithTheKeyboard reaches the Rules table's refs header
// with Tab alone and sorts by it with Enter, in Chromium. The sort arrow
// is drawn in the sorted column's header, path's first and then refs',
// not spilling into the next one.
func TestBrowser_SortWithTheKeyboard(t *testing.T) {
	b := newBackend(t)
	ids := []string{"p-00000000000000000000000000000011", "p-00000000000000000000000000000012"}
	b.publish(t, ids[0], "rules/a.md", "# A\n\n## Do\n\n1. This.\n")
	b.publish(t, ids[1], "rules/b.md", "# B\n\n## Do\n\n1. That.\n")
	b.append(t, events.TypeRefer, events.ReferData{Refs: []events.Ref{{RuleID: ids[1], ConstraintID: "Do/1"}}}, time.Now())
	p := newPage(t, b.serve(t))
	p.open("/rules", "rules")
	arrowIn(t, p, "path", "▲")

	const onRefs = `!!(document.activeElement && document.activeElement.closest("th[data-sort=refs]"))`
	reached := false
	for range 40 {
		if err := chromedp.Do(p.ctx, chromedp.KeyEvent(kb.Tab)); err != nil {
			t.Fatal(err)
		}
		if reached = eval[bool](p, onRefs); reached {
			break
		}
	}
	if !reached {
		t.Fatalf("40 presses of Tab never reached the refs header (focus on %q)", eval[string](p, `document.activeElement.outerHTML.slice(0, 80)`))
	}
	if err := chromedp.Do(p.ctx, chromedp.KeyEvent(kb.Enter)); err != nil {
		t.Fatal(err)
	}
	p.wait(`document.querySelector("th[data-sort=refs].desc") && document.querySelector("[data-table=rules] tbody tr").dataset.rule === "` + ids[1] + `"`)
	p.wait(onRefs) // the redrawn header has the focus back
	arrowIn(t, p, "refs", "▼")
}

// arrowIn checks that the Rules table's header of column sort shows
// arrow, inside its own box, and that no header spills into the next.
func arrowIn(tb testing.TB, p *page, sort, arrow string) {
	tb.Helper()
	if got := eval[string](p, `[...document.querySelectorAll("th[data-sort]")].filter((th) => getComputedStyle(th.querySelector("button"), "::after").content !== "none").map((th) => th.dataset.sort + " " + getComputedStyle(th.querySelector("button"), "::after").content).join(", ")`); got != sort+` " `+arrow+`"` {
		tb.Errorf("rules sorted by %s: the headers with an arrow are %q, want %s's only", sort, got, sort)
	}
	if got := eval[string](p, `[...document.querySelectorAll("th[data-sort], th[data-sort] button")].filter((el) => el.scrollWidth > el.clientWidth).map((el) => (el.dataset.sort || el.parentElement.dataset.sort) + " " + el.tagName + " " + el.scrollWidth + ">" + el.clientWidth).join(", ")`); got != "" {
		tb.Errorf("rules sorted by %s: headers spill out of their box: %s", sort, got)
	}
}

package ui_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/clumsies/clumsies/events"
)

// TestBrowser_LongTextFits publishes a rule with a 300-character path
// segment and two constraints under a long heading, and checks in
// Chromium that the Rules table keeps its numbers on screen (the path
// wraps and is whole in the cell's title), that on a phone the hash of
// the publish history stays one line and the constraint labels stay
// distinct, and that a table wider than the phone says it scrolls.
func TestBrowser_LongTextFits(t *testing.T) {
	b := newBackend(t)
	const id = "p-00000000000000000000000000000002"
	path := "rules/" + strings.Repeat("x", 300) + ".md"
	b.publish(t, id, path, "# Long\n\n## Keep every exported function documented\n\n1. Say what it does.\n2. Say what it returns.\n")
	b.append(t, events.TypeRefer, events.ReferData{Refs: []events.Ref{{RuleID: id, ConstraintID: "Keep every exported function documented/1"}}}, time.Now())
	p := newPage(t, b.serve(t))

	p.open("/rules", "rules")
	row := `document.querySelector('[data-rule="` + id + `"]')`
	if right, width := eval[float64](p, row+`.querySelector("[data-field=refs]").getBoundingClientRect().right`), eval[float64](p, `document.documentElement.clientWidth`); right > width {
		t.Errorf("rules: the refs cell ends at %.0f px, off a %.0f px wide page", right, width)
	}
	if title := eval[string](p, row+`.querySelector("td").title`); !strings.Contains(title, path) {
		t.Errorf("rules: the path cell's title is %q, want the whole path", title)
	}

	if err := chromedp.Do(p.ctx, chromedp.EmulateViewport(390, 844)); err != nil {
		t.Fatal(err)
	}
	p.open("/rules/"+id, "rule")
	labels := eval[[]string](p, `[...document.querySelectorAll('svg[data-chart=constraints] text:not([data-refs])')].map((t) => t.textContent)`)
	if len(labels) != 2 || labels[0] == labels[1] || !strings.HasSuffix(labels[0], "/1") || !strings.HasSuffix(labels[1], "/2") {
		t.Errorf("phone: constraint labels %q, want two that end in /1 and /2", labels)
	}
	if n := eval[int](p, `(() => { const r = document.createRange(); r.selectNodeContents(document.querySelector("td.hash")); return new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size; })()`); n != 1 {
		t.Errorf("phone: the hash takes %d lines, want one", n)
	}
	if title := eval[string](p, `document.querySelector("td.hash").title`); !strings.HasPrefix(title, "sha256:") {
		t.Errorf("phone: the cut hash's title is %q, want the whole hash", title)
	}
	p.open("/rules", "rules")
	if n := eval[int](p, `[...document.querySelectorAll(".scroller")].filter((s) => s.scrollWidth > s.clientWidth + 1).length`); n == 0 {
		t.Fatalf("phone: no table of the rules page is wider than the page; the test needs one")
	}
	if n := eval[int](p, `[...document.querySelectorAll(".scroller")].filter((s) => s.scrollWidth > s.clientWidth + 1 && !(s.previousElementSibling && s.previousElementSibling.matches(".scroll-cue"))).length`); n != 0 {
		t.Errorf("phone: %d tables scroll sideways without a cue", n)
	}
}

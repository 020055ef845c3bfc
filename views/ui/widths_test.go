package ui_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
)

// rulesCatalog publishes a catalog the size of a team's: rules and
// workflows of a few groups, one path 201 characters long, some applied
// and some not.
func rulesCatalog(t *testing.T, b *backend) (longID string) {
	t.Helper()
	paths := []string{"api/HANDLERS.md", "api/ERRORS.md", "api/VERSIONING.md", "go/STYLE.md", "go/TESTING.md", "go/CONCURRENCY.md",
		"web/ACCESSIBILITY.md", "web/FORMS.md", "workflow/CODING.md", "workflow/REVIEW.md", "ops/DEPLOY.md", "ops/ONCALL.md",
		"rules/" + strings.Repeat("a-very-long-folder-name/", 8) + ".md"}
	if len(paths[len(paths)-1]) != 201 {
		t.Fatalf("the long path is %d characters, want 201", len(paths[len(paths)-1]))
	}
	for i, p := range paths {
		id := fmt.Sprintf("p-%032d", 100+i)
		body := "---\npaths: [\"api/**\"]\n---\n# R\n\n## Steps\n\n1. One.\n2. Two.\n"
		b.append(t, events.TypeCatalogPublish, events.PublishData{ID: id, Kind: string(content.KindOfRulePath(p)), Path: p, Name: content.NameOf(p),
			Group: content.GroupOf(p), Hash: content.Hash([]byte(body)), Body: body}, time.Now())
		if i%3 == 0 {
			b.append(t, events.TypeRefer, events.ReferData{Refs: []events.Ref{{RuleID: id, ConstraintID: "Steps/1"}}}, time.Now())
		}
		longID = id
	}
	return longID
}

// TestBrowser_RulesTableWidths checks in Chromium that the Rules table
// of a team's catalog reads on a laptop, a large screen and a phone: at
// 1366 and 1920 px it fits its panel (no column cut off), the path column
// keeps a short path on one line, "never applied" and the dates stay on
// one line, a row is at most two lines and the 201-character path at
// most eight; on a phone the path column stays readable, the filter box
// spans the screen and the table says it scrolls sideways.
func TestBrowser_RulesTableWidths(t *testing.T) {
	b := newBackend(t)
	longID := rulesCatalog(t, b)
	p := newPage(t, b.serve(t))
	// lines counts the lines the text of the element el takes.
	const lines = `((el) => { const r = document.createRange(); r.selectNodeContents(el); return new Set([...r.getClientRects()].filter((x) => x.width > 0).map((x) => Math.round(x.top))).size; })`
	const lineHeight = `parseFloat(getComputedStyle(document.querySelector("[data-table=rules] td")).lineHeight)`
	for _, width := range []int64{1366, 1920} {
		if err := chromedp.Do(p.ctx, chromedp.EmulateViewport(width, 900)); err != nil {
			t.Fatal(err)
		}
		p.open("/rules", "rules")
		if over := eval[float64](p, `((s) => s.scrollWidth - s.clientWidth)(document.querySelector("[data-table=rules]").parentElement)`); over > 1 {
			t.Errorf("%d px: the rules table is %.0f px wider than its panel", width, over)
		}
		if w := eval[float64](p, `document.querySelector("th[data-sort=path]").getBoundingClientRect().width`); w < 200 {
			t.Errorf("%d px: the path column is %.0f px wide, want at least 200", width, w)
		}
		if n := eval[int](p, lines+`(document.querySelector('[data-rule="p-00000000000000000000000000000100"] td a'))`); n != 1 {
			t.Errorf("%d px: api/HANDLERS.md takes %d lines, want one", width, n)
		}
		if n := eval[int](p, `Math.max(...[...document.querySelectorAll("[data-table=rules] .tag, [data-table=rules] td.date")].map(`+lines+`))`); n != 1 {
			t.Errorf("%d px: a tag or a date takes %d lines, want one", width, n)
		}
		lh := eval[float64](p, lineHeight)
		heights := eval[map[string]float64](p, `Object.fromEntries([...document.querySelectorAll("[data-table=rules] tbody tr")].map((tr) => [tr.dataset.rule, tr.getBoundingClientRect().height]))`)
		for id, h := range heights {
			max := 2*lh + 16
			if id == longID {
				max = 8*lh + 16
			}
			if h > max {
				t.Errorf("%d px: the row of %s is %.0f px tall, want at most %.0f", width, id, h, max)
			}
		}
	}

	if err := chromedp.Do(p.ctx, chromedp.EmulateViewport(390, 844)); err != nil {
		t.Fatal(err)
	}
	p.open("/rules", "rules")
	if w := eval[float64](p, `document.querySelector("input[aria-label=filter]").getBoundingClientRect().width`); w < 300 {
		t.Errorf("phone: the filter box is %.0f px wide, want at least 300", w)
	}
	if w := eval[float64](p, `document.querySelector("th[data-sort=path]").getBoundingClientRect().width`); w < 140 {
		t.Errorf("phone: the path column is %.0f px wide, want at least 140", w)
	}
	if n := eval[int](p, lines+`(document.querySelector('[data-rule="p-00000000000000000000000000000100"] td a'))`); n != 1 {
		t.Errorf("phone: api/HANDLERS.md takes %d lines, want one", n)
	}
	if !eval[bool](p, `!!document.querySelector("[data-table=rules]").parentElement.previousElementSibling.matches(".scroll-cue")`) {
		t.Errorf("phone: the rules table scrolls sideways without saying so")
	}
	if over := eval[float64](p, `document.documentElement.scrollWidth - document.documentElement.clientWidth`); over > 1 {
		t.Errorf("phone: the page is %.0f px wider than the screen", over)
	}
}

// TestBrowser_SortByAClickOnTheHeader clicks the middle of the refs
// header, which is shorter than the wrapped headers beside it: the table
// sorts by refs, the most referred first.
func TestBrowser_SortByAClickOnTheHeader(t *testing.T) {
	b := newBackend(t)
	rulesCatalog(t, b)
	const most = "p-00000000000000000000000000000109"
	b.append(t, events.TypeRefer, events.ReferData{Refs: []events.Ref{{RuleID: most, ConstraintID: "Steps/1"}, {RuleID: most, ConstraintID: "Steps/2"}}}, time.Now())
	p := newPage(t, b.serve(t))
	p.open("/rules", "rules")
	if err := chromedp.Do(p.ctx, chromedp.Click(chromedp.CSS(`th[data-sort=refs]`))); err != nil {
		t.Fatal(err)
	}
	p.wait(`document.querySelector("[data-table=rules] tbody tr").dataset.rule === "` + most + `"`)
}

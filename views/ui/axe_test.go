package ui_test

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/internal/browser"
)

// TestBrowser_Accessibility runs axe-core on every page of the dashboard,
// in the light and the dark scheme, in Chromium: no page may break a rule
// axe rates serious or critical (contrast, names of charts and controls,
// landmarks, ...), nor leave content (the range bar) outside a
// landmark. The first Tab reaches a link that skips to the content, and
// the navigation marks the page shown with aria-current.
func TestBrowser_Accessibility(t *testing.T) {
	b := newBackend(t)
	longID := rulesCatalog(t, b)
	const api = "p-00000000000000000000000000000100"
	now := time.Now()
	b.append(t, events.TypeSessionStart, events.SessionStartData{Host: "claude-code", Model: "opus", Source: "startup"}, now)
	b.append(t, events.TypeSetup, events.SetupData{}, now)
	b.append(t, events.TypeLoad, events.LoadData{Items: []events.LoadedItem{{ID: api, Changed: true}}}, now)
	b.append(t, events.TypeFileEdit, events.FileEditData{Host: "claude-code", Tool: "Edit", Paths: []string{"api/h.go"}, Rules: []string{api}}, now)
	b.append(t, events.TypeRefer, events.ReferData{Refs: []events.Ref{{RuleID: api, ConstraintID: "Steps/1", Reason: "kept it"}}}, now)
	p := newPage(t, b.serve(t))

	pages := []struct{ path, name string }{
		{"/", "overview"}, {"/rules", "rules"}, {"/rules/" + api, "rule"}, {"/rules/" + longID, "rule"}, {"/sessions", "sessions"},
		{"/sessions/s-ui-test", "session"}, {"/drafts", "drafts"}, {"/live", "live"}, {"/search?q=api", "search"}, {"/?days=7", "overview"},
		{"/commits", "commits"}, {"/commits/main..HEAD", "commit"},
	}
	for _, scheme := range []string{"light", "dark"} {
		if err := browser.Scheme(p.ctx, scheme); err != nil {
			t.Fatal(err)
		}
		for _, pg := range pages {
			p.open(pg.path, pg.name)
			if cur := eval[string](p, `[...document.querySelectorAll("nav a[aria-current=page]")].map((a) => a.dataset.nav).join(" ")`); cur != navOf(pg.name) {
				t.Errorf("%s: the navigation marks %q as the page shown, want %q", pg.path, cur, navOf(pg.name))
			}
			vs, err := browser.Axe(p.ctx)
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range vs {
				if v.Serious() || v.ID == "region" {
					t.Errorf("%s, %s scheme: %s", pg.path, scheme, v)
				} else {
					t.Logf("%s, %s scheme (not serious): %s", pg.path, scheme, v)
				}
			}
		}
	}
}

// navOf is the navigation's link of the page name.
func navOf(name string) string {
	switch name {
	case "rule":
		return "rules"
	case "session":
		return "sessions"
	case "commit":
		return "commits"
	case "search":
		return ""
	}
	return name
}

// TestBrowser_SkipLink checks that the first Tab of a page reaches a
// link that skips the header and the range bar, and that following it
// puts the focus on the content without leaving the page.
func TestBrowser_SkipLink(t *testing.T) {
	b := newBackend(t)
	rulesCatalog(t, b)
	p := newPage(t, b.serve(t))
	p.open("/rules", "rules")
	if err := chromedp.Do(p.ctx, chromedp.KeyEvent(kb.Tab)); err != nil {
		t.Fatal(err)
	}
	if got := eval[string](p, `document.activeElement.textContent`); got != "Skip to the content" {
		t.Fatalf("the first Tab reaches %q, want the link that skips to the content", got)
	}
	if err := chromedp.Do(p.ctx, chromedp.KeyEvent(kb.Enter)); err != nil {
		t.Fatal(err)
	}
	p.wait(`document.activeElement && document.activeElement.id === "app"`)
	if got := eval[string](p, `location.pathname + " " + document.getElementById("app").dataset.page`); got != "/rules rules" {
		t.Errorf("after the skip link: %q, want the rules page still", got)
	}
}

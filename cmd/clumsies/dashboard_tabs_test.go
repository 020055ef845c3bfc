package main_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/clumsies/clumsies/internal/browser"
	"github.com/clumsies/clumsies/internal/testbin"
	"github.com/clumsies/clumsies/views/dash"
)

// openTabs opens n tabs of b at base, the first at first (with the
// token), the others at /, and waits until each has drawn page name. A
// tab that gets no connection fails the test after 90 s.
func openTabs(t *testing.T, b *browser.Browser, base, first, name string, n int) ([]*page, []context.CancelFunc) {
	t.Helper()
	var tabs []*page
	var closers []context.CancelFunc
	for i := range n {
		tab, closeTab, err := b.Tab()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(closeTab)
		closers = append(closers, closeTab)
		p := &page{tb: t, ctx: tab, b: b, base: base}
		path := "/"
		if i == 0 {
			path = first
		}
		// A tab that cannot get a connection never ends loading: bound
		// the navigation, so that the test fails instead of hanging.
		nav, stop := context.WithTimeout(tab, 90*time.Second)
		err = chromedp.Do(nav, chromedp.Navigate(base+path))
		stop()
		if err != nil {
			t.Fatalf("tab %d: open %s: %v", i+1, path, err)
		}
		p.waitPage(name)
		tabs = append(tabs, p)
	}
	return tabs, closers
}

// TestDashboard_EightTabs opens the dashboard in eight tabs of one
// Chromium, more than the six connections a browser keeps per server:
// the tabs share one live stream, so the eighth loads its data and
// follows a new tool call without a reload, and when the tab that holds
// the stream closes, another takes it over, with the recent events a new
// Live page starts with.
func TestDashboard_EightTabs(t *testing.T) {
	dir := demoWorkspace(t)
	base := serveHTTP(t, dir, "--http", "127.0.0.1:0")
	tok := testbin.HTTPToken(t, dir)

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	b, err := browser.Start(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	tabs, closers := openTabs(t, b, base, "/?token="+tok, "overview", 8)
	last := tabs[7]
	var ov dash.Overview
	getJSON(t, base, "/api/overview", tok, &ov)
	last.wait(`document.querySelector('[data-figure="events"]').textContent === ` + strconv.Quote(thousands(ov.Events)))
	last.text(`String(window.__sameDocument = true)`)

	cs := mcpSession(t, base, tok, "dashboard-tabs-1")
	callTool(t, cs, "memdisc", map[string]any{"query": "tabs"})
	getJSON(t, base, "/api/overview", tok, &ov)
	last.wait(`document.querySelector('[data-figure="events"]').textContent === ` + strconv.Quote(thousands(ov.Events)))
	if last.text(`String(window.__sameDocument === true)`) != "true" {
		t.Errorf("tab 8: the page reloaded to show the new event")
	}

	// The first tab holds the stream; closed, the others go on following.
	closers[0]()
	callTool(t, cs, "memdisc", map[string]any{"query": "after the first tab"})
	getJSON(t, base, "/api/overview", tok, &ov)
	last.wait(`document.querySelector('[data-figure="events"]').textContent === ` + strconv.Quote(thousands(ov.Events)))
	// A Live page opened now gets the recent events from the tab that
	// holds the stream, the last one included.
	last.open("/live", "live")
	last.wait(`!!document.querySelector('[data-table=live] tr[data-seq="` + strconv.FormatUint(ov.LastSeq, 10) + `"]')`)
	if errs := b.Errors(); len(errs) > 0 {
		t.Fatalf("console errors: %q", errs)
	}
}

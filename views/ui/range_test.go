package ui_test

import (
	"testing"
	"time"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/views/dash"
)

// TestBrowser_RangeBar has setups 2 and 20 days ago, and picks ranges in
// the overview's range bar in Chromium: the "7 days" preset puts days=7
// in the address and the overview counts the one session of the range,
// as /api/overview?days=7 does (its Tools panel, over all time, says
// so); two dates put since and until there;
// "all" takes the range out again and counts both sessions.
func TestBrowser_RangeBar(t *testing.T) {
	b := newBackend(t)
	now := time.Now().UTC()
	b.appendAs(t, "s-recent", events.TypeSetup, events.SetupData{}, now.AddDate(0, 0, -2))
	b.appendAs(t, "s-old", events.TypeSetup, events.SetupData{}, now.AddDate(0, 0, -20))
	base := b.serve(t)
	var week dash.Overview
	getJSON(t, base+"/api/overview?days=7", &week)
	if week.Sessions != 1 {
		t.Fatalf("/api/overview?days=7: %d sessions, want 1", week.Sessions)
	}

	p := newPage(t, base)
	p.open("/", "overview")
	figure := `document.querySelector('[data-figure="sessions"]').textContent`
	if got := eval[string](p, figure); got != "2" {
		t.Errorf("overview, all time: %s sessions, want 2", got)
	}
	eval[bool](p, `(document.querySelector('[data-preset="7 days"]').click(), true)`)
	p.wait(`location.search === "?days=7" && ` + figure + ` === "1" && document.querySelector('[data-preset="7 days"]').getAttribute("aria-pressed") === "true"`)
	// The tools' figures are kept over all time only: the panel says so.
	if n := eval[int](p, `[...document.querySelectorAll(".panel h2")].filter((x) => x.textContent === "Tools (all time)").length`); n != 1 {
		t.Errorf("overview of the last 7 days: %d panels named \"Tools (all time)\", want 1", n)
	}

	since, until := now.AddDate(0, 0, -25).Format("2006-01-02"), now.AddDate(0, 0, -10).Format("2006-01-02")
	eval[bool](p, `(() => {
		const s = document.querySelector("[data-range-since]"), u = document.querySelector("[data-range-until]");
		s.value = "`+since+`"; u.value = "`+until+`"; u.dispatchEvent(new Event("change")); return true; })()`)
	p.wait(`location.search === "?since=` + since + `&until=` + until + `" && ` + figure + ` === "1" && document.querySelector('[data-range-label]').textContent === "` + since + ` to ` + until + `"`)
	if got := eval[string](p, `document.querySelector('nav a[data-nav=sessions]').getAttribute("href")`); got != "/sessions?since="+since+"&until="+until {
		t.Errorf("the Sessions link is %q, want it to carry the range", got)
	}
	eval[bool](p, `(document.querySelector('[data-preset="all"]').click(), true)`)
	p.wait(`location.search === "" && ` + figure + ` === "2"`)
	if errs := p.b.Errors(); len(errs) > 0 {
		t.Errorf("console errors: %q", errs)
	}
}

// TestBrowser_LiveFilterInAddress picks a type on the Live page in
// Chromium: the address keeps it, and the page opened at that address
// has it picked.
func TestBrowser_LiveFilterInAddress(t *testing.T) {
	p := newPage(t, newBackend(t).serve(t))
	p.open("/live", "live")
	eval[bool](p, `(() => { const s = document.querySelector("select[aria-label=type]"); s.value = "attest.refer"; s.dispatchEvent(new Event("change")); return true; })()`)
	p.wait(`location.search === "?type=attest.refer"`)
	p.open("/live?type=attest.refer", "live")
	if got := eval[string](p, `document.querySelector("select[aria-label=type]").value`); got != "attest.refer" {
		t.Errorf("live page opened with ?type=attest.refer: the filter reads %q", got)
	}
}

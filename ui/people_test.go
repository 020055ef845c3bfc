package ui_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/clumsies/clumsies/dash"
	"github.com/clumsies/clumsies/events"
)

// TestBrowser_SessionsByHost has three sessions: one a claude-code hook
// announced with its model, one codex announced, one that only set up.
// /api/sessions gives each its host and model; the Sessions page in
// Chromium shows them in columns, and its host filter, kept in the
// address (a reload keeps it), leaves the codex session alone.
func TestBrowser_SessionsByHost(t *testing.T) {
	b := newBackend(t)
	now := time.Now().UTC()
	b.appendAs(t, "s-claude", events.TypeSessionStart, events.SessionStartData{Host: "claude-code", Model: "claude-opus"}, now.Add(-3*time.Minute))
	b.appendAs(t, "s-claude", events.TypeSetup, events.SetupData{}, now.Add(-3*time.Minute))
	b.appendAs(t, "s-codex", events.TypeSessionStart, events.SessionStartData{Host: "codex"}, now.Add(-2*time.Minute))
	b.appendAs(t, "s-codex", events.TypeSetup, events.SetupData{}, now.Add(-2*time.Minute))
	b.appendAs(t, "s-bare", events.TypeSetup, events.SetupData{}, now.Add(-time.Minute))
	base := b.serve(t)

	var ss dash.Sessions
	getJSON(t, base+"/api/sessions", &ss)
	got := map[string]string{}
	for _, s := range ss.Items {
		got[s.ID] = s.Host + "/" + s.Model
	}
	if want := map[string]string{"s-claude": "claude-code/claude-opus", "s-codex": "codex/", "s-bare": "/"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("/api/sessions: hosts and models %v, want %v", got, want)
	}

	p := newPage(t, base)
	p.open("/sessions", "sessions")
	cells := eval[[]string](p, `[...document.querySelectorAll('[data-session="s-claude"] td')].slice(1, 4).map((td) => td.textContent)`)
	if fmt.Sprint(cells) != "[claude-code claude-opus set up]" {
		t.Errorf("sessions page: s-claude's host, model and kind read %q", cells)
	}
	eval[bool](p, `(() => { const s = document.querySelector("select[data-filter=host]"); s.value = "codex"; s.dispatchEvent(new Event("change")); return true; })()`)
	p.wait(`document.querySelectorAll("[data-table=sessions] tbody tr").length === 1 && document.querySelector('[data-session="s-codex"]')`)
	if q := eval[string](p, `location.search`); q != "?host=codex" {
		t.Errorf("sessions page: the address is %q after the host filter, want ?host=codex", q)
	}
	p.open("/sessions?host=codex", "sessions")
	if ids := eval[[]string](p, `[...document.querySelectorAll("[data-table=sessions] tbody tr")].map((tr) => tr.dataset.session)`); fmt.Sprint(ids) != "[s-codex]" {
		t.Errorf("sessions page opened with ?host=codex lists %q, want [s-codex]", ids)
	}
}

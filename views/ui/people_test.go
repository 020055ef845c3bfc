package ui_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/views/dash"
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
	toolCallsAndHooks(t, p, "sessions page")
	eval[bool](p, `(() => { const s = document.querySelector("select[data-filter=host]"); s.value = "codex"; s.dispatchEvent(new Event("change")); return true; })()`)
	p.wait(`document.querySelectorAll("[data-table=sessions] tbody tr").length === 1 && document.querySelector('[data-session="s-codex"]')`)
	if q := eval[string](p, `location.search`); q != "?host=codex" {
		t.Errorf("sessions page: the address is %q after the host filter, want ?host=codex", q)
	}
	p.open("/", "overview")
	toolCallsAndHooks(t, p, "overview's recent sessions")
	p.open("/sessions?host=codex", "sessions")
	if ids := eval[[]string](p, `[...document.querySelectorAll("[data-table=sessions] tbody tr")].map((tr) => tr.dataset.session)`); fmt.Sprint(ids) != "[s-codex]" {
		t.Errorf("sessions page opened with ?host=codex lists %q, want [s-codex]", ids)
	}
}

// toolCallsAndHooks checks that the table of s-claude on page p counts
// its tool calls and its hooks' events apart, in columns named so.
func toolCallsAndHooks(tb testing.TB, p *page, name string) {
	tb.Helper()
	head := eval[[]string](p, `[...document.querySelector('[data-session="s-claude"]').closest("table").querySelectorAll("th")].map((th) => th.textContent)`)
	if !slices.Contains(head, "tool calls") || !slices.Contains(head, "hooks") || slices.Contains(head, "calls") {
		tb.Errorf("%s: the headers read %q, want \"tool calls\" and \"hooks\" apart", name, head)
	}
	counts := eval[[]string](p, `["calls", "hooks"].map((f) => document.querySelector('[data-session="s-claude"] [data-field=' + f + ']').textContent)`)
	if fmt.Sprint(counts) != "[1 1]" {
		tb.Errorf("%s: s-claude's tool calls and hooks read %q, want [1 1] (its setup, its session start)", name, counts)
	}
}

package ui_test

import (
	"testing"
	"time"

	"github.com/clumsies/clumsies/events"
)

// TestBrowser_SessionNamesRules opens, in Chromium, the timeline of a
// session that a hook announced and that set up, loaded a rule and
// referred to a constraint of it: the load and the ref name the rule by
// its path (not its id, not the constraint's section), and the session
// counts three tool calls and one hook event apart.
func TestBrowser_SessionNamesRules(t *testing.T) {
	b := newBackend(t)
	const id = "p-00000000000000000000000000000004"
	b.publish(t, id, "rules/style.md", "# Style\n\n## Naming\n\n1. Say what it is.\n")
	now := time.Now()
	b.append(t, events.TypeSessionStart, events.SessionStartData{Host: "claude-code", Source: "startup"}, now)
	b.append(t, events.TypeSetup, events.SetupData{}, now)
	b.append(t, events.TypeLoad, events.LoadData{Items: []events.LoadedItem{{ID: id, Hash: "sha256:00", Changed: true}}}, now)
	b.append(t, events.TypeRefer, events.ReferData{Refs: []events.Ref{{RuleID: id, ConstraintID: "Naming/1", Name: "Naming", Reason: "named it"}}}, now)
	p := newPage(t, b.serve(t))

	p.open("/sessions/s-ui-test", "session")
	for _, typ := range []string{"attest.load", "attest.refer"} {
		if got := eval[string](p, `[...document.querySelectorAll("[data-timeline] li")].find((li) => li.querySelector("b").textContent === "`+typ+`").querySelector(".detail a").textContent`); got != "rules/style.md" {
			t.Errorf("timeline: the %s names the rule %q, want its path rules/style.md", typ, got)
		}
	}
	if got := eval[string](p, `document.querySelector('[data-figure="calls"]').textContent`); got != "3" {
		t.Errorf("session: %s calls, want 3 tool calls (setup, load, ref)", got)
	}
	if got := eval[string](p, `(document.querySelector('[data-figure="hooks"]') || {}).textContent`); got != "1" {
		t.Errorf("session: %q hook events, want 1 (the session start)", got)
	}
}

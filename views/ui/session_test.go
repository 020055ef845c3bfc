package ui_test

import (
	"strings"
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

// TestBrowser_SessionTimelineGate opens the timeline of a session the
// gate denied an edit, that changed a file in scope before loading the
// rule and that the stop gate held: each entry names the file, the rule
// by its path and the decision; the evidence panel shows the session's
// figures.
func TestBrowser_SessionTimelineGate(t *testing.T) {
	b := newBackend(t)
	const id = "p-00000000000000000000000000000005"
	b.publish(t, id, "rules/api.md", "---\npaths: [\"api/**\"]\n---\n# API\n\n## Errors\n\n1. Map them once.\n")
	now := time.Now()
	b.append(t, events.TypeSessionStart, events.SessionStartData{Host: "claude-code", Source: "startup"}, now)
	b.append(t, events.TypeToolGated, events.ToolGatedData{Host: "claude-code", Tool: "Edit", Paths: []string{"api/h.go"},
		Decision: events.GateDeny, Missing: []string{id}}, now)
	b.append(t, events.TypeFileEdit, events.FileEditData{Host: "claude-code", Tool: "Bash", Paths: []string{"api/g.go"},
		Rules: []string{id}, Unloaded: []string{id}, Unnamed: []string{"api/g.go"}}, now)
	b.append(t, events.TypeStopBlocked, events.StopBlockedData{Host: "claude-code", Blocks: 1, Limit: 3,
		Files: []string{"api/g.go"}, Missing: []string{id}}, now)
	p := newPage(t, b.serve(t))

	p.open("/sessions/s-ui-test", "session")
	entry := func(typ string) string {
		return `[...document.querySelectorAll("[data-timeline] li")].find((li) => li.querySelector("b").textContent === "` + typ + `").querySelector(".detail")`
	}
	for _, c := range []struct{ typ, gate, file string }{
		{"attest.tool_gated", "deny", "api/h.go"},
		{"attest.file_edit", "ungated", "api/g.go"},
		{"attest.stop_blocked", "stop", "api/g.go"},
	} {
		got := eval[[]string](p, `((d) => [d.querySelector("[data-gate]").dataset.gate, d.querySelector(".mono").textContent,
			[...d.querySelectorAll("a")].map((a) => a.textContent).join(" ")])(`+entry(c.typ)+`)`)
		if len(got) != 3 || got[0] != c.gate || got[1] != c.file || !strings.Contains(got[2], "rules/api.md") {
			t.Errorf("timeline %s: got %q, want decision %s, file %s, the rule rules/api.md", c.typ, got, c.gate, c.file)
		}
	}
	for fig, want := range map[string]string{"denials": "1", "ungated": "1", "stopGateBlocks": "1"} {
		if got := eval[string](p, `document.querySelector('[data-figure="`+fig+`"]').textContent`); got != want {
			t.Errorf("evidence %s: %q, want %s", fig, got, want)
		}
	}
}

// TestBrowser_SessionFileEditInScope opens the timeline of a session
// whose file edits had rules in scope, loaded and not: the detail names
// each rule by its path as a link and never prints an element as text
// ("[object HTMLSpanElement]", a nested list flattened one level only).
func TestBrowser_SessionFileEditInScope(t *testing.T) {
	b := newBackend(t)
	const api, style = "p-00000000000000000000000000000006", "p-00000000000000000000000000000007"
	b.publish(t, api, "rules/api.md", "---\npaths: [\"api/**\"]\n---\n# API\n\n## Errors\n\n1. Map them once.\n")
	b.publish(t, style, "rules/style.md", "---\npaths: [\"**/*.go\"]\n---\n# Style\n\n## Naming\n\n1. Say what it is.\n")
	now := time.Now()
	b.append(t, events.TypeSessionStart, events.SessionStartData{Host: "claude-code", Source: "startup"}, now)
	b.append(t, events.TypeFileEdit, events.FileEditData{Host: "claude-code", Tool: "Edit", Paths: []string{"api/h.go"},
		Rules: []string{api, style}, Unloaded: []string{api}, Protected: []string{".clumsies/config.toml"}}, now)
	b.append(t, events.TypeFileEdit, events.FileEditData{Host: "claude-code", Tool: "Write", Paths: []string{"api/g.go"},
		Rules: []string{api, style}}, now)
	p := newPage(t, b.serve(t))

	p.open("/sessions/s-ui-test", "session")
	if text := eval[string](p, `document.querySelector("[data-timeline]").textContent`); strings.Contains(text, "[object") {
		t.Errorf("timeline prints an element as text: %q", text)
	}
	links := eval[[]string](p, `[...document.querySelectorAll("[data-timeline] li")].filter((li) => li.querySelector("b").textContent === "attest.file_edit").map((li) => [...li.querySelectorAll(".detail a")].map((a) => a.textContent).join(" "))`)
	if len(links) != 2 || links[0] == "" || links[1] == "" {
		t.Fatalf("timeline: the file edits name the rules %q, want two entries naming them", links)
	}
	for _, l := range links {
		if !strings.Contains(l, "rules/api.md") || !strings.Contains(l, "rules/style.md") {
			t.Errorf("timeline: a file edit names %q, want rules/api.md and rules/style.md as links", l)
		}
	}
}

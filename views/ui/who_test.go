package ui_test

import (
	"strings"
	"testing"
	"time"

	"github.com/clumsies/clumsies/events"
)

// TestBrowser_WhoRanASession opens a hooked session and the rule it
// applied: the session's header names its host, its model and how it is
// bound; the rule's sessions name their host and model, an MCP-only
// session its MCP client.
func TestBrowser_WhoRanASession(t *testing.T) {
	b := newBackend(t)
	const id = "p-00000000000000000000000000000005"
	b.publish(t, id, "rules/style.md", "# Style\n\n## Naming\n\n1. Say what it is.\n")
	now := time.Now()
	ref := events.ReferData{Refs: []events.Ref{{RuleID: id, ConstraintID: "Naming/1", Name: "Naming"}}}
	b.appendAs(t, "hooked-1", events.TypeSessionStart, events.SessionStartData{Host: "claude-code", Model: "claude-opus-4-1"}, now)
	b.appendAs(t, "hooked-1", events.TypeSetup, events.SetupData{Bound: events.BoundByHook, Client: &events.ClientInfo{Name: "claude-code", Version: "2.1"}}, now)
	b.appendAs(t, "hooked-1", events.TypeRefer, ref, now)
	b.appendAs(t, "mcp-only-1", events.TypeSetup, events.SetupData{Bound: events.BoundByMemsetup, Client: &events.ClientInfo{Name: "Visual Studio Code", Version: "1.99"}}, now)
	b.appendAs(t, "mcp-only-1", events.TypeRefer, ref, now.Add(time.Second))
	p := newPage(t, b.serve(t))

	p.open("/sessions/hooked-1", "session")
	who := eval[string](p, `document.querySelector('[data-figure="who"]').textContent`)
	for _, want := range []string{"claude-code", "claude-opus-4-1", "bound by its host's hook"} {
		if !strings.Contains(who, want) {
			t.Errorf("session header %q does not name %q", who, want)
		}
	}
	p.open("/rules/"+id, "rule")
	got := eval[string](p, `[...document.querySelectorAll('[data-figure="host"], [data-figure="model"]')].map((td) => td.textContent).join("|")`)
	if got != "Visual Studio Code 1.99|–|claude-code|claude-opus-4-1" {
		t.Errorf("the rule's sessions name host and model %q, want the MCP client for the MCP-only session and the hook's host and model", got)
	}
}

package hub

import (
	"fmt"
	"testing"
	"time"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/hub/hubwire"
)

// TestProjector_WhoRanSessions: the hub keeps the host and model a
// session's hook named, and the MCP client of an MCP-only session; its
// evidence counts sessions per host and per model, and each member names
// the hosts and models of its sessions.
func TestProjector_WhoRanSessions(t *testing.T) {
	p := testProjector(t)
	day := "2026-11-16"
	feed := sessionFeeder(t, p, day)
	feed(nodeA, "", events.TypeCatalogPublish, events.PublishData{ID: "p-1", Kind: "rule", Path: "A.md", Body: "# A\n\nWhat A asks.\n"})
	ref := events.ReferData{Refs: []events.Ref{{RuleID: "p-1", ConstraintID: "A"}}}
	feed(nodeA, "hooked", events.TypeSessionStart, events.SessionStartData{Host: "claude-code", Model: "claude-opus-4-1"})
	feed(nodeA, "hooked", events.TypeSetup, events.SetupData{Client: &events.ClientInfo{Name: "claude-code"}})
	feed(nodeA, "hooked", events.TypeRefer, ref)
	feed(nodeA, "mcp-only", events.TypeSetup, events.SetupData{Client: &events.ClientInfo{Name: "Visual Studio Code", Version: "1.99"}})
	feed(nodeA, "mcp-only", events.TypeRefer, ref)

	now, _ := time.Parse(time.DateOnly, "2026-11-20")
	st, err := p.stats(Query{Days: 30, Now: now, Period: "daily"})
	if err != nil {
		t.Fatal(err)
	}
	who := map[string]string{}
	for _, s := range st.Evidence.Sessions {
		who[s.ID] = s.Host + "|" + s.Model + "|" + s.Client
	}
	if who["hooked"] != "claude-code|claude-opus-4-1|claude-code" || who["mcp-only"] != "||Visual Studio Code" {
		t.Errorf("sessions: %v; want the hook's host and model, and the MCP-only session's client", who)
	}
	if got, want := fmt.Sprint(st.Evidence.Hosts), "[{Visual Studio Code 1} {claude-code 1}]"; got != want {
		t.Errorf("hosts: %s, want %s", got, want)
	}
	if got, want := fmt.Sprint(st.Evidence.Models), "[{claude-opus-4-1 1} {unknown 1}]"; got != want {
		t.Errorf("models: %s, want %s", got, want)
	}
	if len(st.Members) != 1 || fmt.Sprint(st.Members[0].Hosts) != "[Visual Studio Code claude-code]" || fmt.Sprint(st.Members[0].Models) != "[claude-opus-4-1]" {
		t.Errorf("members: %+v; want one naming both hosts and the model", st.Members)
	}
}

// sessionFeeder returns a function that applies to p an event of a session (none:
// "") of node n on day, numbered in the node's order.
func sessionFeeder(t *testing.T, p *projector, day string) func(n hubwire.Node, session string, typ events.Type, payload any) {
	seqs := map[string]uint64{}
	return func(n hubwire.Node, session string, typ events.Type, payload any) {
		t.Helper()
		ev := event(t, n.Workspace, typ, day, payload)
		ev.SessionID = session
		seqs[n.ID]++
		applyAll(t, p, sourced(n, ev, seqs[n.ID]))
	}
}

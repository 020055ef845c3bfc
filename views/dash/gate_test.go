package dash_test

import (
	"context"
	"testing"
	"time"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections"
	"github.com/clumsies/clumsies/views/dash"
)

// TestAnswer_Gate: what the gates recorded is on every page that shows
// evidence. The session page names the rules its gate events and its
// ungated change asked for and carries the session's figures; the rules
// list and a rule's page count the events that named the rule; the
// metrics page sums them.
func TestAnswer_Gate(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	l := newTestLedger(t, ctx, "ws-dash-gate")
	add := l.add
	const rule = "p-00000000000000000000000000000020"
	body := "---\npaths: [\"api/**\"]\n---\n# API\n\n## Errors\n\n1. Map them once.\n"
	add("", events.TypeCatalogPublish, events.PublishData{ID: rule, Kind: string(content.KindRule), Path: "api/API.md",
		Name: "API", Hash: content.Hash([]byte(body)), Body: body})
	add("s1", events.TypeSessionStart, events.SessionStartData{Host: "claude-code"})
	add("s1", events.TypeToolGated, events.ToolGatedData{Host: "claude-code", Tool: "Edit", Paths: []string{"api/h.go"}, Decision: events.GateDeny, Missing: []string{rule}})
	add("s1", events.TypeToolGated, events.ToolGatedData{Host: "claude-code", Tool: "Edit", Paths: []string{"api/h.go"}, Decision: events.GateWarn, Missing: []string{rule}})
	add("s1", events.TypeFileEdit, events.FileEditData{Host: "claude-code", Tool: "Bash", Paths: []string{"api/h.go"}, Rules: []string{rule}, Unloaded: []string{rule}, Unnamed: []string{"api/h.go"}})
	add("s1", events.TypeStopBlocked, events.StopBlockedData{Host: "claude-code", Blocks: 1, Limit: 3, Files: []string{"api/h.go"}, Missing: []string{rule}})
	l.settle()
	answer := l.page
	want := projections.RuleGateFigures{Denials: 1, Warnings: 1, Ungated: 1, StopGateBlocks: 1}

	var se dash.Session
	answer(dash.Request{Page: dash.PageSession, ID: "s1"}, &se)
	if se.Rules[rule].Path != "api/API.md" {
		t.Errorf("session page names %v, want %s as api/API.md", se.Rules, rule)
	}
	if se.Evidence == nil || se.Evidence.Gate != (projections.GateFigures{RuleGate: want}) || se.Evidence.Host != "claude-code" {
		t.Errorf("session page evidence: got %+v, want the gates' figures %+v on claude-code", se.Evidence, want)
	}

	var rs dash.Rules
	answer(dash.Request{Page: dash.PageRules}, &rs)
	if len(rs.Items) != 1 || rs.Items[0].RuleGate != want {
		t.Errorf("rules page: got %+v, want %+v", rs.Items, want)
	}
	var ru dash.Rule
	answer(dash.Request{Page: dash.PageRule, ID: rule}, &ru)
	if ru.Effect.RuleGate != want || ru.Evidence.RuleGate != want {
		t.Errorf("rule page: effect %+v, evidence %+v; want %+v", ru.Effect.RuleGate, ru.Evidence.RuleGate, want)
	}
	var m dash.Metrics
	answer(dash.Request{Page: dash.PageMetrics}, &m)
	if m.Gate != (projections.GateFigures{RuleGate: want}) {
		t.Errorf("metrics page: got %+v, want %+v", m.Gate, want)
	}
}

package projections_test

import (
	"context"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections"
)

// TestStore_Sessions folds the events of five sessions: calls count the
// tool calls, failed ones included, and hooks the hooks' events apart.
func TestStore_Sessions(t *testing.T) {
	l, s := newLedger(t), openMem(t)
	apply(t, s,
		l.add(events.TypeSetup, events.SetupData{}, inSession("b"), at("2026-01-01T00:00:05.000Z")),
		l.refer(ruleA, []string{"Steps/1", "Style"}, inSession("b"), at("2026-01-01T00:00:07.000Z")),
		l.add(events.TypeAgentReport, events.AgentReportData{Summary: "done"}, inSession("b"), at("2026-01-01T00:00:06.000Z")),
		l.add(events.TypeReject, events.RejectData{}, inSession("b"), at("2026-01-01T00:00:04.000Z")),
		l.add(events.TypeAgentReport, events.FailureData{Message: "bad"}, inSession("b"), failed("invalid_params"), at("2026-01-01T00:00:08.000Z")),
		l.refer(ruleA, []string{"Style"}, inSession("b"), failed("unknown_constraint"), at("2026-01-01T00:00:08.000Z")),
		l.add(events.TypeSetup, events.SetupData{}, inSession("a"), at("2026-01-01T00:00:09.000Z")),
		l.publish(ruleA, "rule", "go/A.md", bodyA), // no session
		// Calls that never set up a session: not an agent session.
		l.add(events.TypeSetup, events.FailureData{Message: "conflict"}, inSession("c"), failed("session_conflict"), at("2026-01-01T00:00:10.000Z")),
		l.add(events.TypeLoad, events.FailureData{Message: "no session"}, inSession("d"), failed("session_required"), at("2026-01-01T00:00:10.000Z")),
		// Announced by a hook, never set up: seen by hooks only; "a" was
		// announced too, and set up.
		l.add(events.TypeSessionStart, events.SessionStartData{Host: "codex"}, inSession("e"), at("2026-01-01T00:00:11.000Z")),
		l.add(events.TypeSessionStart, events.SessionStartData{Host: "codex"}, inSession("a"), at("2026-01-01T00:00:11.000Z")),
	)
	got := s.Sessions()
	want := []projections.Session{
		{ID: "b", First: "2026-01-01T00:00:04.000Z", Last: "2026-01-01T00:00:08.000Z", Calls: 6, SetUp: true, Refs: 2, Reports: 1, Rejects: 1},
		{ID: "a", First: "2026-01-01T00:00:09.000Z", Last: "2026-01-01T00:00:11.000Z", Calls: 1, Hooks: 1, SetUp: true, Hooked: true},
		{ID: "c", First: "2026-01-01T00:00:10.000Z", Last: "2026-01-01T00:00:10.000Z", Calls: 1},
		{ID: "d", First: "2026-01-01T00:00:10.000Z", Last: "2026-01-01T00:00:10.000Z", Calls: 1},
		{ID: "e", First: "2026-01-01T00:00:11.000Z", Last: "2026-01-01T00:00:11.000Z", Hooks: 1, Hooked: true},
	}
	if jsonOf(got) != jsonOf(want) {
		t.Errorf("got %s\nwant %s", jsonOf(got), jsonOf(want))
	}
	if sum := s.Summary(); sum.Sessions != 2 || sum.SessionsHooksOnly != 1 || sum.Events != 12 || sum.Objects != 1 || sum.Checkpoint != 12 {
		t.Errorf("got summary %s, want 2 set-up sessions, 1 seen by hooks only, 12 events, 1 object", jsonOf(sum))
	}
}

// TestStore_SessionBinding folds a session's secrets: the hook's at each
// start, a memsetup's where no hook ran; the binding and client of its
// latest setup show on the session, the secrets never do.
func TestStore_SessionBinding(t *testing.T) {
	l, s := newLedger(t), openMem(t)
	hook, resumed, issued := events.SecretHash("css-hook"), events.SecretHash("css-resumed"), events.SecretHash("css-issued")
	apply(t, s,
		l.add(events.TypeSessionStart, events.SessionStartData{Host: "claude-code", SecretHash: hook}, inSession("h")),
		l.add(events.TypeSetup, events.SetupData{Bound: events.BoundByHook, Client: &events.ClientInfo{Name: "claude-code", Version: "2.1"}}, inSession("h")),
		l.add(events.TypeSessionStart, events.SessionStartData{Host: "claude-code", Source: "resume", SecretHash: resumed}, inSession("h")),
		l.add(events.TypeSetup, events.SetupData{Bound: events.BoundByMemsetup, SecretHash: issued, Client: &events.ClientInfo{Name: "Visual Studio Code"}}, inSession("m")),
		l.add(events.TypeSetup, events.FailureData{Message: "refused"}, inSession("m"), failed("session_conflict")),
		l.add(events.TypeSetup, events.SetupData{}, inSession("old")),
	)
	ctx := context.Background()
	for _, c := range []struct {
		id, secret, by string
		setUp          bool
	}{
		{"h", "css-hook", events.BoundByHook, true},
		{"h", "css-resumed", events.BoundByHook, true},
		{"h", "css-issued", "", true},
		{"m", "css-issued", events.BoundByMemsetup, true},
		{"old", "css-hook", "", true},
		{"none", "css-hook", "", false},
	} {
		b, err := s.SessionBinding(ctx, c.id)
		if err != nil {
			t.Fatal(err)
		}
		by, ok := b.Match(c.secret)
		if by != c.by || ok != (c.by != "") || b.SetUp != c.setUp {
			t.Errorf("session %s, secret %s: matched %q (%v), set up %v; want %q, set up %v", c.id, c.secret, by, ok, b.SetUp, c.by, c.setUp)
		}
	}
	for _, ses := range s.Sessions() {
		want := map[string][2]string{"h": {"hook", "claude-code 2.1"}, "m": {"memsetup", "Visual Studio Code"}, "old": {"", ""}}[ses.ID]
		if ses.Bound != want[0] || ses.Client != want[1] {
			t.Errorf("session %s: bound %q, client %q; want %q, %q", ses.ID, ses.Bound, ses.Client, want[0], want[1])
		}
		if j := jsonOf(ses); strings.Contains(j, "sha256:") {
			t.Errorf("session %s shows a secret's hash: %s", ses.ID, j)
		}
	}
}

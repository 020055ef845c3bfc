package projections_test

import (
	"testing"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections"
)

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
	)
	got := s.Sessions()
	want := []projections.Session{
		{ID: "b", First: "2026-01-01T00:00:04.000Z", Last: "2026-01-01T00:00:08.000Z", Calls: 6, Refs: 2, Reports: 1, Rejects: 1},
		{ID: "a", First: "2026-01-01T00:00:09.000Z", Last: "2026-01-01T00:00:09.000Z", Calls: 1},
	}
	if jsonOf(got) != jsonOf(want) {
		t.Errorf("got %s\nwant %s", jsonOf(got), jsonOf(want))
	}
	if sum := s.Summary(); sum.Sessions != 2 || sum.Events != 8 || sum.Objects != 1 || sum.Checkpoint != 8 {
		t.Errorf("got summary %s, want 2 sessions, 8 events, 1 object", jsonOf(sum))
	}
}

package projections_test

import (
	"testing"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections"
)

func TestStore_Tools(t *testing.T) {
	l, s := newLedger(t), openMem(t)
	apply(t, s,
		l.refer(ruleA, []string{"Style"}, took(100)),
		l.refer(ruleA, []string{"Style"}, took(300), failed("unknown_constraint")),
		l.refer(ruleA, []string{"Style"}, took(-5)),
		l.add(events.TypeSetup, events.SetupData{}, took(7)),
		l.publish(ruleA, "rule", "go/A.md", bodyA), // not a tool call
	)
	got := s.Tools()
	want := []projections.ToolMetrics{
		{Tool: "memref", Calls: 3, Errors: 1, TotalUs: 400, MaxUs: 300},
		{Tool: "memsetup", Calls: 1, TotalUs: 7, MaxUs: 7},
	}
	if jsonOf(got) != jsonOf(want) {
		t.Errorf("got %s\nwant %s", jsonOf(got), jsonOf(want))
	}
	if avg := got[0].AvgUs(); avg != 133 {
		t.Errorf("got average %d µs, want 133", avg)
	}
	if avg := (projections.ToolMetrics{}).AvgUs(); avg != 0 {
		t.Errorf("got average %d µs for no calls, want 0", avg)
	}
}

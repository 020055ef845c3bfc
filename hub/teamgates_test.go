package hub

import (
	"context"
	"testing"
	"time"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/evidence"
	"github.com/clumsies/clumsies/hub/hubwire"
)

// TestProjector_MetricsTeamGates: the metrics' sums per team are those of the
// team's stats evidence over all time, sessions of every day and
// workspace added; they are summed once per checkpoint and again after
// the next event.
func TestProjector_MetricsTeamGates(t *testing.T) {
	p := testProjector(t)
	ctx := context.Background()
	if got, err := p.teamGates(ctx); err != nil || len(got) != 0 {
		t.Fatalf("no evidence yet: %+v (%v), want no team", got, err)
	}
	old, recent := sessionFeeder(t, p, "2025-01-06"), sessionFeeder(t, p, "2026-11-16")
	old(nodeA, "s1", events.TypeToolGated, events.ToolGatedData{Decision: events.GateDeny, Missing: []string{"p-1"}, Protected: []string{".clumsies/config.toml"}})
	old(nodeA, "s1", events.TypeFileEdit, events.FileEditData{Paths: []string{"api/x.go"}, Unloaded: []string{"p-1"}})
	recent(nodeA, "s2", events.TypeToolGated, events.ToolGatedData{Decision: events.GateWarn, Missing: []string{"p-1"}})
	recent(nodeA, "s2", events.TypeStopBlocked, events.StopBlockedData{Files: []string{"api/x.go"}, Missing: []string{"p-1"}})
	recent(nodeB, "s3", events.TypeToolGated, events.ToolGatedData{Decision: events.GateAllow, Unchecked: "no answer"})
	recent(nodeB, "s3", events.TypeFileEdit, events.FileEditData{Paths: []string{".clumsies/config.toml"}, Protected: []string{".clumsies/config.toml"}})
	recent(nodeB, "s3", events.TypeFileEdit, events.FileEditData{Paths: []string{"b.go"}})

	got, err := p.teamGates(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := []hubwire.TeamGate{
		{Team: "blue", Edits: 2, Gate: evidence.Gate{Unchecked: 1, ProtectedChanges: 1}},
		{Team: "red", Edits: 1, Gate: evidence.Gate{RuleGate: evidence.RuleGate{Denials: 1, Warnings: 1, Ungated: 1, StopGateBlocks: 1}, ProtectedGated: 1}},
	}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("team gates: %+v, want %+v", got, want)
	}
	now, _ := time.Parse(time.DateOnly, "2026-11-20")
	for _, tg := range got {
		st, err := p.stats(Query{Days: 3660, Now: now, Teams: []string{tg.Team}})
		if err != nil {
			t.Fatal(err)
		}
		if st.Evidence.Edits != tg.Edits || st.Evidence.Gate != tg.Gate {
			t.Errorf("team %s: metrics %+v, stats evidence over all days edits %d, %+v; want the same", tg.Team, tg, st.Evidence.Edits, st.Evidence.Gate)
		}
	}

	computed := p.caches.gates.computed
	if _, err := p.teamGates(ctx); err != nil || p.caches.gates.computed != computed {
		t.Errorf("asked again at the same checkpoint: summed %d times more (%v), want 0", p.caches.gates.computed-computed, err)
	}
	recent(nodeB, "s4", events.TypeToolGated, events.ToolGatedData{Decision: events.GateDeny, Missing: []string{"p-2"}})
	if got, err := p.teamGates(ctx); err != nil || got[0].Denials != 1 || p.caches.gates.computed != computed+1 {
		t.Errorf("after a new denial in blue: %+v (%v), summed %d times more; want blue's denial, summed once", got, err, p.caches.gates.computed-computed)
	}

	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	recent(nodeA, "s5", events.TypeFileEdit, events.FileEditData{Paths: []string{"f.go"}}) // a new checkpoint: summed again
	if _, err := p.teamGates(cancelled); err == nil {
		t.Errorf("summed with a cancelled context: no error, want the context's")
	}
}

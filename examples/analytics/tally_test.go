package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/events"
)

// referEvent returns a refer event at seq declaring one ref.
func referEvent(tb testing.TB, seq uint64, rule, constraint string) events.Event {
	tb.Helper()
	ev, err := events.New(workspace, events.TypeRefer, events.ReferData{Refs: []events.Ref{{RuleID: rule, ConstraintID: constraint}}})
	if err != nil {
		tb.Fatal(err)
	}
	ev.Seq, ev.Tool, ev.SessionID = seq, "memref", "s1"
	return ev
}

// mustApply applies ev to tl and fails tb on an error.
func mustApply(tb testing.TB, tl *tally, ev events.Event) {
	tb.Helper()
	if _, err := tl.apply(ev); err != nil {
		tb.Fatalf("apply seq %d: %v", ev.Seq, err)
	}
}

func TestTally_Apply(t *testing.T) {
	t.Run("SkipsSeenSequences", func(t *testing.T) {
		tl := newTally()
		for _, seq := range []uint64{1, 2, 2, 1, 3} {
			if _, err := tl.apply(referEvent(t, seq, "p-1", "A")); err != nil {
				t.Fatal(err)
			}
		}
		if tl.Events != 3 || tl.Refs["p-1"] != 3 || tl.Tools["memref"].Calls != 3 {
			t.Errorf("got %d events, %d refs, %d calls, want 3 of each", tl.Events, tl.Refs["p-1"], tl.Tools["memref"].Calls)
		}
	})

	t.Run("FailedReferHasNoRefs", func(t *testing.T) {
		tl := newTally()
		ev := referEvent(t, 1, "p-1", "A")
		ev.Outcome, ev.ErrorCode = events.OutcomeError, "unknown_rule"
		ev.Data = []byte(`{"message":"Unknown rule id: p-1"}`)
		if _, err := tl.apply(ev); err != nil {
			t.Fatal(err)
		}
		if len(tl.Refs) != 0 || tl.Tools["memref"].Errors != 1 {
			t.Errorf("got refs %v and %d errors, want no refs and 1 error", tl.Refs, tl.Tools["memref"].Errors)
		}
	})
}

func TestTally_Print(t *testing.T) {
	tl := newTally()
	mustApply(t, tl, referEvent(t, 1, "p-1", "Steps/1"))
	mustApply(t, tl, referEvent(t, 2, "p-2", "Rule"))
	mustApply(t, tl, referEvent(t, 3, "p-2", "Rule"))
	var out bytes.Buffer
	if err := tl.print(&out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(out.String(), "\n")
	find := func(fields ...string) int {
		for i, l := range lines {
			if strings.Join(strings.Fields(l), " ") == strings.Join(fields, " ") {
				return i
			}
		}
		t.Errorf("got output\n%s\nwant a line %q", out.String(), fields)
		return -1
	}
	find("3", "events", "(last", "seq", "3),", "1", "sessions")
	find("memref", "3", "0")
	find("p-2", "Rule", "2")
	if p2, p1 := find("p-2", "2"), find("p-1", "1"); p2 > p1 {
		t.Errorf("got output\n%s\nwant p-2 (2 refs) before p-1 (1 ref)", out.String())
	}
}

func TestTally_State(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	if tl, err := loadTally(path); err != nil || tl.Events != 0 {
		t.Fatalf("load missing state: got %+v, %v, want an empty tally", tl, err)
	}
	tl := newTally()
	mustApply(t, tl, referEvent(t, 4, "p-1", "A"))
	if err := saveTally(path, tl); err != nil {
		t.Fatal(err)
	}
	got, err := loadTally(path)
	if err != nil {
		t.Fatal(err)
	}
	if got.LastSeq != 4 || got.Events != 1 || got.Constraints["p-1#A"] != 1 || got.Tools["memref"].Calls != 1 {
		t.Errorf("got %+v after a round trip, want last seq 4 and one ref of p-1#A", got)
	}
}

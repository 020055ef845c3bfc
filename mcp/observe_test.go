package mcp

import (
	"context"
	"sync"
	"testing"

	"github.com/clumsies/clumsies/events"
)

// callSink keeps what the server tells its observer.
type callSink struct {
	mu  sync.Mutex
	got []CallRecord
}

func (s *callSink) ToolCall(_ context.Context, c CallRecord) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.got = append(s.got, c)
}

// TestObserver_EveryCall checks that the observer hears of every call
// once, a recorded one with its event and one whose event could not be
// stored with the code the agent got.
func TestObserver_EveryCall(t *testing.T) {
	e := newEnv(t, envOptions{})
	sink := &callSink{}
	e.srv.cfg.Observer = sink
	e.seed()
	c := e.connect()
	setup(t, c, "observed")
	e.ledger.closed.Store(true)
	mustFail(t, c, "memdisc", map[string]any{}, events.CodeUnavailable)
	e.ledger.closed.Store(false)

	sink.mu.Lock()
	defer sink.mu.Unlock()
	if len(sink.got) != 2 {
		t.Fatalf("the observer heard of %d calls, want 2: %+v", len(sink.got), sink.got)
	}
	setUp, disc := sink.got[0], sink.got[1]
	if setUp.Event.Tool != "memsetup" || !setUp.Recorded || setUp.Event.Outcome != events.OutcomeOK ||
		setUp.Event.SessionID != "observed" || setUp.Event.ID == "" || setUp.Start.IsZero() {
		t.Errorf("memsetup: %+v", setUp)
	}
	if disc.Event.Tool != "memdisc" || disc.Recorded || disc.Event.Outcome != events.OutcomeError ||
		disc.Event.ErrorCode != string(events.CodeUnavailable) {
		t.Errorf("memdisc whose event was not stored: recorded %v, outcome %s, code %q", disc.Recorded, disc.Event.Outcome, disc.Event.ErrorCode)
	}
}

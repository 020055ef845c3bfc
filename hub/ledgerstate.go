package hub

import (
	"context"
	"fmt"
	"sync"

	"github.com/clumsies/clumsies/events"
)

// ledgerState is how far the hub's follower of its own ledger has come:
// every event up to applied is applied (the team catalogs' entries
// derived from their catalog events), last holds the sequence of each
// team's newest event, and outcomes the first outcome of each review. A
// decision about a team reads them and its catalog, and appends on the
// condition that the team's newest event is still the one it read.
type ledgerState struct {
	mu       sync.Mutex
	applied  uint64
	last     map[string]uint64
	outcomes map[string]recordedOutcome
	changed  chan struct{}
}

// recordedOutcome is a review outcome of the hub's ledger.
type recordedOutcome struct {
	id   string // the event's
	typ  events.Type
	data events.ReviewOutcomeData
}

func newLedgerState() *ledgerState {
	return &ledgerState{last: map[string]uint64{}, outcomes: map[string]recordedOutcome{}, changed: make(chan struct{})}
}

// advance records that the event at seq, of team ("" when it names none),
// is applied; o is set when the event is a review outcome.
func (s *ledgerState) advance(seq uint64, team string, o *recordedOutcome) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.applied = max(s.applied, seq)
	if team != "" {
		s.last[team] = max(s.last[team], seq)
	}
	if o != nil {
		if _, decided := s.outcomes[o.data.ReviewID]; !decided {
			s.outcomes[o.data.ReviewID] = *o
		}
	}
	close(s.changed)
	s.changed = make(chan struct{})
}

// team returns the sequence of team's newest applied event (0: none) and
// the outcome of review id the ledger records, if any, as of that event.
func (s *ledgerState) team(team, id string) (uint64, recordedOutcome, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	o, ok := s.outcomes[id]
	return s.last[team], o, ok
}

// waitApplied waits until every event up to seq is applied, or ctx ends.
func (s *ledgerState) waitApplied(ctx context.Context, seq uint64) error {
	for {
		s.mu.Lock()
		done, ch := s.applied >= seq, s.changed
		s.mu.Unlock()
		if done {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("wait for the hub's ledger to be applied up to %d: %w", seq, ctx.Err())
		case <-ch:
		}
	}
}

package hub

import (
	"context"
	"fmt"
	"sync"
)

// ledgerState is how far the hub's follower of its own ledger has come:
// every event up to applied is applied (the team catalogs' entries
// derived from their catalog events), and last holds the sequence of each
// team's newest event.
type ledgerState struct {
	mu      sync.Mutex
	applied uint64
	last    map[string]uint64
	changed chan struct{}
}

func newLedgerState() *ledgerState {
	return &ledgerState{last: map[string]uint64{}, changed: make(chan struct{})}
}

// advance records that the event at seq, of team ("" when it names none),
// is applied.
func (s *ledgerState) advance(seq uint64, team string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.applied = max(s.applied, seq)
	if team != "" {
		s.last[team] = max(s.last[team], seq)
	}
	close(s.changed)
	s.changed = make(chan struct{})
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

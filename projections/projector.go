package projections

import (
	"context"
	"errors"
	"fmt"

	"github.com/clumsies/clumsies/projections/engine"

	"github.com/clumsies/clumsies/events"
)

// Checkpoint returns the sequence of the last applied event, 0 if none.
func (s *Store) Checkpoint() uint64 { return s.progress.Seq() }

// decoded is an event with the payload the projector needs, nil for
// events whose payload changes no read model.
type decoded struct {
	ev      *events.Event
	payload any
}

// Apply is the projector: it applies events in order and writes their rows
// and the new checkpoint in one pebble batch, committed without sync, so
// that after a crash the rows and the checkpoint roll back together and
// replay moves forward. Run calls it; so may tests and tools.
//
// In the store a rebuild writes (see Rebuild), which no one reads before
// it is complete, Apply folds many batches into the state and commits them
// together (bulkFold); Checkpoint then counts the events applied, not yet
// all committed.
//
// Apply must be deterministic, as hashicorp/raft asks of an FSM: the same
// events in the same order give the same bytes in the store, whatever the
// batches they came in, the wall clock or the order of map iteration. Rows
// hold only what the events say (times are the envelope's strings) and
// are written from the resulting state, not from the batch; Digest proves
// it, since a rebuild gives the digest of the live store.
//
// Apply also keeps the ledger's hash chain (Chain) over the stored bytes
// of every event (Event.Raw).
//
// Events with Seq <= Checkpoint() are skipped. The others must follow on
// without holes and carry their stored bytes: Apply returns an error wrapping ErrGap, and applies
// nothing, if one has a sequence other than the one expected. It also
// applies nothing and returns an error if an event has no sequence or a
// payload that does not decode, ErrClosed after Close, and the storage
// error if the batch cannot be committed (the read models then stay as
// they were).
func (s *Store) Apply(evs ...events.Event) error {
	s.applyMu.Lock()
	defer s.applyMu.Unlock()
	todo, err := s.decode(evs)
	if err != nil || len(todo) == 0 {
		return err
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.closed.Load():
		return ErrClosed
	case s.broken != nil:
		return s.broken
	case s.corrupt.check() != nil:
		return s.corrupt.check()
	}
	for _, d := range todo {
		s.st.apply(d)
	}
	if s.bulk != nil && !s.bulk.add(todo) {
		s.progress.Set(s.st.checkpoint)
		return nil
	}
	if err := s.commit(); err != nil {
		return err
	}
	s.progress.Advance(s.st.checkpoint)
	return nil
}

// decode picks the events Apply has to apply and decodes their payloads.
func (s *Store) decode(evs []events.Event) ([]decoded, error) {
	next := s.Checkpoint() + 1
	var todo []decoded
	for i := range evs {
		ev := &evs[i]
		switch {
		case ev.Seq == 0:
			return nil, fmt.Errorf("apply event %s: no sequence (events must come from a Log)", ev.ID)
		case ev.Seq < next:
			continue
		case ev.Seq > next:
			return nil, fmt.Errorf("apply seq %d: %w: expected %d", ev.Seq, ErrGap, next)
		case len(ev.Raw) == 0:
			return nil, fmt.Errorf("apply seq %d: no stored bytes (events must come from a Log)", ev.Seq)
		}
		p, err := payloadOf(ev)
		if err != nil {
			return nil, fmt.Errorf("apply seq %d: %w", ev.Seq, err)
		}
		if todo == nil {
			todo = make([]decoded, 0, len(evs)-i)
		}
		todo = append(todo, decoded{ev, p})
		next++
	}
	return todo, nil
}

// commit writes the rows the models touched, and the meta rows, in one
// batch. If that fails, the committer loads the state again from the
// store, so memory matches what pebble holds. The caller holds s.mu.
func (s *Store) commit() error {
	var sorted *engine.SortedRows
	if s.bulk != nil {
		s.bulk.reset()
		sorted = &s.bulk.rows
	}
	var fault func() error
	if s.fault != nil {
		fault = func() error { return s.fault(s.st.checkpoint) }
	}
	through := s.st.checkpoint
	st, err := s.committer.Commit(s.st, sorted, fault)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, engine.ErrReload):
		s.broken = fmt.Errorf("projections store %s is unusable after a failed commit through seq %d: %w", s.dir, through, err)
		return s.broken
	}
	s.adopt(st)
	s.progress.Set(st.checkpoint) // a rebuild's Apply moved it before committing
	return fmt.Errorf("commit through seq %d: %w", through, err)
}

// WaitFor blocks until the event with sequence seq has been applied, so a
// caller can read its own write. It returns ctx.Err() if ctx ends first and
// ErrClosed if the store is closed first.
func (s *Store) WaitFor(ctx context.Context, seq uint64) error {
	return s.progress.WaitFor(ctx, seq)
}

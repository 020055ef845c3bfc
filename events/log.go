package events

import "context"

// Log is an append-only, ordered store of events. Sequences start at 1 and
// have no gaps.
//
// Implementations: MemoryLog (tests, tools) and natsjs.Log (JetStream). Both
// pass the conformance suite in eventstest.
type Log interface {
	// Append stores ev and returns its sequence once it is durable. Appending
	// an event whose ID was already appended (within the implementation's
	// dedupe window) stores nothing and returns the original sequence, so a
	// retried append is safe. It returns an error wrapping ErrMalformed if ev
	// does not validate.
	Append(ctx context.Context, ev Event) (seq uint64, err error)

	// AppendExpecting is Append on a condition: ev is stored only if the
	// newest event of exp.Aggregate still has sequence exp.LastSeq (0: the
	// aggregate has none), so that a decision made on the state at that
	// sequence is never stored over a change it did not see. Otherwise it
	// stores nothing and returns an error wrapping ErrConflict (a
	// *ConflictError). ev's type must belong to exp.Aggregate, else the
	// error wraps ErrMalformed.
	//
	// A retry of an append that was stored (the same id, within the dedupe
	// window) returns the original sequence even though the condition no
	// longer holds: the retry is the same decision, not a new one.
	AppendExpecting(ctx context.Context, ev Event, exp Expectation) (seq uint64, err error)

	// Replay calls fn, in order, for every event with Seq >= from that
	// exists when Replay starts, with Seq set and Raw holding the bytes
	// stored (fn may keep them; the log does not reuse them). It stops at
	// fn's first error and returns it.
	Replay(ctx context.Context, from uint64, fn func(Event) error) error

	// Subscribe is Replay that keeps going: after the existing events it
	// delivers new ones in order until ctx ends (returning ctx.Err()) or fn
	// fails (returning its error).
	Subscribe(ctx context.Context, from uint64, fn func(Event) error) error

	// LastSeq returns the sequence of the newest event, 0 for an empty log.
	LastSeq(ctx context.Context) (uint64, error)
}

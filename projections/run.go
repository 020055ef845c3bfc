package projections

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections/engine"
)

// Run keeps the store current with log: it catches up from Checkpoint()+1,
// then follows new appends until ctx ends, and returns ctx.Err() then.
//
// The engine's runner (engine.Runner) does the following: while catching
// up it writes up to the batch size (Options.BatchSize) events per batch;
// when following, it commits as soon as the log has nothing more to give
// right now, so a tool call waiting for its own event (WaitFor) is not
// held back, save that evidence-only events linger (see linger). It
// returns the first error of the log or of Apply, and one wrapping
// ErrCorrupt as soon as pebble reports a damaged file, to the projector or
// to any reader.
func (s *Store) Run(ctx context.Context, log events.Log) error {
	// A damaged file found by any reader stops the projector: the read
	// models cannot be trusted to follow the log any more.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-s.corrupt.done:
			cancel()
		case <-ctx.Done():
		}
	}()
	err := s.runner().Run(ctx, log)
	if cerr := s.corrupt.check(); cerr != nil {
		return fmt.Errorf("run projector: %w", cerr)
	}
	if err != nil && !(ctx.Err() != nil && errors.Is(err, ctx.Err())) {
		return fmt.Errorf("run projector: %w", err)
	}
	return err
}

// linger is how long a batch of evidence-only events (see
// events.Event.ChangesCatalog) may wait for more before it is committed,
// when nobody waits for it. Tool calls that record such events do not wait
// for the projections, so committing them in bigger, later batches takes
// the projector's work off the path of the next call.
const linger = 20 * time.Millisecond

// runner returns the engine's runner over the store: it applies batches of
// the log's events with Apply, and lets evidence-only events linger.
func (s *Store) runner() *engine.Runner[events.Event] {
	return &engine.Runner[events.Event]{
		Seq:       func(ev events.Event) uint64 { return ev.Seq },
		Apply:     func(batch []events.Event) error { return s.Apply(batch...) },
		Progress:  &s.progress,
		BatchSize: s.batchSize,
		Prompt:    events.Event.ChangesCatalog,
		Linger:    linger,
	}
}

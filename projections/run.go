package projections

import (
	"context"
	"fmt"
	"time"

	"github.com/clumsies/clumsies/events"
)

// Run keeps the store current with log: it catches up from Checkpoint()+1,
// then follows new appends until ctx ends, and returns ctx.Err() then.
//
// While catching up it writes up to the batch size (Options.BatchSize)
// events per batch; when following, it commits as soon as the log has
// nothing more to give right now, so a tool call waiting for its own event
// (WaitFor) is not held back. It returns the first error of the log or of
// Apply, and one wrapping ErrCorrupt as soon as pebble reports a damaged
// file, to the projector or to any reader.
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
	err := s.run(ctx, log)
	if cerr := s.corrupt.check(); cerr != nil {
		return fmt.Errorf("run projector: %w", cerr)
	}
	return err
}

func (s *Store) run(ctx context.Context, log events.Log) error {
	known, err := log.LastSeq(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("run projector: read last sequence: %w", err)
	}
	if err := s.pump(ctx, log.Subscribe, known, nil); err != nil {
		return fmt.Errorf("run projector: %w", err)
	}
	return ctx.Err()
}

// source delivers the events of a log from a sequence on: Log.Replay or
// Log.Subscribe.
type source func(ctx context.Context, from uint64, fn func(events.Event) error) error

// pump applies the events src delivers from Checkpoint()+1 until src
// returns. src runs in its own goroutine, so decoding envelopes (the log's
// work) overlaps with applying them; events up to known, which are known
// to exist, come over in chunks (feed). Batches wait for them rather than
// commit early. progress, if not nil, is called with the checkpoint after
// each batch.
func (s *Store) pump(parent context.Context, src source, known uint64, progress func(uint64)) error {
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	f := newFeed(s.batchSize)
	srcErr := make(chan error, 1)
	go func() {
		defer close(f.ch)
		err := src(ctx, s.Checkpoint()+1, func(ev events.Event) error {
			return f.send(ctx, ev, known)
		})
		if err == nil {
			err = f.flush(ctx)
		}
		srcErr <- err
	}()
	err := s.drain(f, known, progress)
	cancel()
	f.discard() // unblock the source so it can return
	// The source has returned. Unless drain failed (and pump cancelled it),
	// it did so on its own: its error counts, save that of parent ending.
	if serr := <-srcErr; err == nil && parent.Err() == nil {
		err = serr
	}
	return err
}

// linger is how long a batch of evidence-only events (see
// events.Event.ChangesCatalog) may wait for more before it is committed,
// when nobody waits for it. Tool calls that record such events do not wait
// for the projections, so committing them in bigger, later batches takes
// the projector's work off the path of the next call.
const linger = 20 * time.Millisecond

// drain applies the events of feed in batches until feed is closed or
// Apply fails. A batch is committed when it is full, or when feed is empty
// and no event up to known is still to come; a batch that changes no
// catalog state first lingers for more events, until somebody waits.
func (s *Store) drain(f *feed, known uint64, progress func(uint64)) error {
	batch := make([]events.Event, 0, s.batchSize)
	timer := time.NewTimer(linger)
	timer.Stop()
	for {
		ev, open := f.next()
		if !open {
			return nil
		}
		batch = append(batch[:0], ev)
		lingering := false
	fill:
		for open && len(batch) < s.batchSize {
			last := batch[len(batch)-1]
			switch {
			case last.Seq < known:
				ev, open = f.next()
			case !lingering && (last.ChangesCatalog() || s.waiters.Load() > 0):
				var ready bool
				if ev, open, ready = f.poll(); !ready {
					break fill
				}
			default:
				if !lingering {
					lingering = true
					timer.Reset(linger)
				}
				var ready bool
				if ev, open, ready = f.poll(); !ready {
					select {
					case chunk, ok := <-f.ch:
						ev, open = f.receive(chunk, ok)
					case <-s.waitStart:
						timer.Stop()
						break fill
					case <-timer.C:
						break fill
					}
				}
				if open && ev.ChangesCatalog() {
					batch = append(batch, ev)
					timer.Stop()
					break fill
				}
			}
			if open {
				batch = append(batch, ev)
			}
		}
		if err := s.Apply(batch...); err != nil {
			return err
		}
		if progress != nil {
			progress(s.Checkpoint())
		}
		if !open {
			return nil
		}
	}
}

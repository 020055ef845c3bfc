package engine

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Runner keeps a store current with a Source: it follows the source from
// the store's checkpoint and hands the items to the store's Apply in
// batches. The store keeps what is its own (how it decodes an item, its
// models, its meta rows); the runner owns the loop around them.
//
// The contract:
//
//   - Apply applies a batch of items in order, each once, and commits their
//     rows with the checkpoint in one pebble batch (a Committer does), then
//     moves Progress to the last item's sequence with Advance. The items of
//     one batch follow on from Progress.Seq()+1 without holes, as the
//     source delivers them; Apply must skip an item at or before the
//     checkpoint. If it fails, it has kept nothing of the batch, and
//     loaded its models again (Committer.Commit, Committer.Reload), so
//     that the same items can be applied again.
//   - What the store holds after a batch does not depend on how items were
//     split into batches (see Model), so the runner is free to cut them:
//     while it catches up with what the source held at the start of a
//     subscription it fills batches of BatchSize; past that, it commits as
//     soon as the source has nothing more to give right now, so that a
//     caller waiting for an item (Progress.WaitFor) is not held back. An
//     item for which Prompt is false may wait up to Linger for more before
//     its batch is committed, unless somebody waits (WaitFor) or a prompt
//     item comes.
//   - A subscription starts from the checkpoint, unless the source holds
//     fewer items than it (the source was made again): then Behind, if
//     set, empties the store and moves Progress back (Set), and the
//     subscription starts from there.
//   - A subscription ends when the source fails, Apply fails, the stall
//     watch (Stall) finds no progress while the source holds more, or ctx
//     ends. Without Retry, Run returns then; with Retry, it subscribes
//     again from the checkpoint after a backoff, until ctx ends.
//
// A Runner's fields are set before Run and not changed while it runs.
type Runner[T any] struct {
	// Seq returns an item's sequence.
	Seq func(T) uint64
	// Apply applies and commits one batch (see the contract above).
	Apply func(batch []T) error
	// Progress is the store's checkpoint: the runner starts from it and
	// learns from it that somebody waits.
	Progress *Progress
	// BatchSize bounds the items of one batch; 0 means 1000.
	BatchSize int
	// Prompt reports whether an item is to be committed without lingering;
	// nil means every item is.
	Prompt func(T) bool
	// Linger is how long a batch of items that need no prompt commit may
	// wait for more, when nobody waits for them.
	Linger time.Duration
	// Retry, if set, has Run subscribe again after a failed subscription
	// instead of returning its error.
	Retry *Backoff
	// OnRetry, if set, learns the error Run retries after, and the wait.
	OnRetry func(err error, wait time.Duration)
	// Behind, if set, is called when a subscription starts and the
	// source's last sequence, last, is before the checkpoint: the source
	// was made again, and the items applied are not its items. It throws
	// away what the store applied and Sets Progress to what it keeps (0:
	// nothing), so that the subscription delivers the source from there.
	// Without it, the runner follows from the checkpoint, and applies
	// only what the source comes to hold past it.
	Behind func(last uint64) error
	// Stall, if set, ends a subscription that makes no progress while the
	// source holds more (see Stall); Run then subscribes again.
	Stall *Stall
}

// Backoff is the wait before Run subscribes again: Min after a
// subscription that applied something, doubled after each one that did
// not, up to Max.
type Backoff struct {
	Min, Max time.Duration
}

func (b Backoff) next(prev time.Duration, progressed bool) time.Duration {
	if prev == 0 || progressed {
		return b.Min
	}
	return min(2*prev, b.Max)
}

// ErrStalled is the error of a subscription the stall watch ended.
var ErrStalled = errors.New("no progress while the source holds more")

// DefaultBatchSize is the batch size of a Runner whose BatchSize is 0.
const DefaultBatchSize = 1000

// Run keeps the store current with src until ctx ends, and returns
// ctx.Err() then; without Retry, it returns the first error of src or of
// Apply.
func (r *Runner[T]) Run(ctx context.Context, src Source[T]) error {
	var wait time.Duration
	for {
		before := r.Progress.Seq()
		err := r.follow(ctx, src)
		if r.Retry == nil {
			return err
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		wait = r.Retry.next(wait, r.Progress.Seq() != before)
		if r.OnRetry != nil {
			r.OnRetry(err, wait)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
	}
}

// follow is one subscription of src, from the checkpoint on.
func (r *Runner[T]) follow(ctx context.Context, src Source[T]) error {
	known, err := src.LastSeq(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("read last sequence: %w", err)
	}
	if r.Behind != nil && known < r.Progress.Seq() {
		if err := r.Behind(known); err != nil {
			return fmt.Errorf("start again from a source made again (it ends at %d, the checkpoint is %d): %w", known, r.Progress.Seq(), err)
		}
	}
	fctx, stop := context.WithCancel(ctx)
	defer stop()
	stalled := make(chan uint64, 1)
	if r.Stall != nil {
		go func() {
			if last, ok := WatchStall(fctx, r.Progress.Seq, src, *r.Stall); ok {
				stalled <- last
				stop()
			}
		}()
	}
	err = r.Pump(fctx, src.Subscribe, known, nil)
	select {
	case last := <-stalled:
		return fmt.Errorf("%w: at seq %d for %s, the source holds %d; following again", ErrStalled, r.Progress.Seq(), r.Stall.After, last)
	default:
	}
	if err != nil {
		return err
	}
	return ctx.Err()
}

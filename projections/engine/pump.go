package engine

import (
	"context"
	"time"
)

// Pump applies the items sub delivers from Progress.Seq()+1 until sub
// returns, or Apply fails (Pump then returns its error). sub runs in its
// own goroutine, so what the source does for each item (decoding an
// envelope, say) overlaps with applying them; items up to known, which
// are known to exist, come over in chunks and fill whole batches.
// progress, if not nil, is called with the checkpoint after each batch.
//
// Run pumps a Source's Subscribe; a rebuild pumps a Replay, which returns
// once it has delivered what the source held.
func (r *Runner[T]) Pump(parent context.Context, sub Subscribe[T], known uint64, progress func(uint64)) error {
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	f := newFeed(r.batchSize(), r.Seq)
	srcErr := make(chan error, 1)
	go func() {
		defer close(f.ch)
		err := sub(ctx, r.Progress.Seq()+1, func(it T) error {
			return f.send(ctx, it, known)
		})
		if err == nil {
			err = f.flush(ctx)
		}
		srcErr <- err
	}()
	err := r.drain(f, known, progress)
	cancel()
	f.discard() // unblock the source so it can return
	// The source has returned. Unless drain failed (and Pump cancelled
	// it), it did so on its own: its error counts, save that of parent
	// ending.
	if serr := <-srcErr; err == nil && parent.Err() == nil {
		err = serr
	}
	return err
}

func (r *Runner[T]) batchSize() int {
	if r.BatchSize <= 0 {
		return DefaultBatchSize
	}
	return r.BatchSize
}

// prompt reports whether it is to be committed without lingering.
func (r *Runner[T]) prompt(it T) bool {
	return r.Prompt == nil || r.Linger <= 0 || r.Prompt(it)
}

// drain applies the items of f in batches until f is closed or Apply
// fails. A batch is committed when it is full, or when f is empty and no
// item up to known is still to come; a batch of items that need no prompt
// commit first lingers for more, until somebody waits.
func (r *Runner[T]) drain(f *feed[T], known uint64, progress func(uint64)) error {
	size := r.batchSize()
	batch := make([]T, 0, min(size, startCap))
	timer := time.NewTimer(r.Linger)
	timer.Stop()
	for {
		it, open := f.next()
		if !open {
			return nil
		}
		batch = append(batch[:0], it)
		lingering := false
	fill:
		for open && len(batch) < size {
			last := batch[len(batch)-1]
			switch {
			case r.Seq(last) < known:
				it, open = f.next()
			case !lingering && (r.prompt(last) || r.Progress.waiting()):
				var ready bool
				if it, open, ready = f.poll(); !ready {
					break fill
				}
			default:
				if !lingering {
					lingering = true
					timer.Reset(r.Linger)
				}
				var ready bool
				if it, open, ready = f.poll(); !ready {
					select {
					case chunk, ok := <-f.ch:
						it, open = f.receive(chunk, ok)
					case <-r.Progress.started():
						timer.Stop()
						break fill
					case <-timer.C:
						break fill
					}
				}
				if open && r.prompt(it) {
					batch = append(batch, it)
					timer.Stop()
					break fill
				}
			}
			if open {
				batch = append(batch, it)
			}
		}
		if err := r.Apply(batch); err != nil {
			return err
		}
		// The next batch overwrites only what it fills: what this one
		// held is let go now, not kept alive until then.
		clear(batch)
		if progress != nil {
			progress(r.Progress.Seq())
		}
		if !open {
			return nil
		}
	}
}

package engine

import (
	"context"
	"sync"
	"sync/atomic"
)

// Progress is a store's checkpoint as readers see it: the sequence of the
// last item applied, and the waits for a sequence to be applied (a caller
// reading its own write). Its zero value is at 0; it is safe for
// concurrent use.
type Progress struct {
	seq atomic.Uint64

	mu      sync.Mutex
	applied chan struct{} // closed and replaced by Advance and Close
	closed  error         // set by Close

	waiters   atomic.Int64  // callers blocked in WaitFor
	waitStart chan struct{} // signalled (without blocking) when a WaitFor starts to block
}

// Seq returns the sequence of the last item applied, 0 if none.
func (p *Progress) Seq() uint64 { return p.seq.Load() }

// Set moves the checkpoint to seq without waking anyone: for a store that
// counts items it has not committed yet (a rebuild), or that was loaded
// again.
func (p *Progress) Set(seq uint64) { p.seq.Store(seq) }

// Advance moves the checkpoint to seq, once the items up to it are
// committed, and wakes every WaitFor.
func (p *Progress) Advance(seq uint64) {
	p.seq.Store(seq)
	p.wake(nil)
}

// Close wakes every WaitFor, which returns err from then on unless its
// sequence was applied.
func (p *Progress) Close(err error) { p.wake(err) }

func (p *Progress) wake(closed error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if closed != nil {
		p.closed = closed
	}
	if p.applied != nil {
		close(p.applied)
		p.applied = nil
	}
}

// WaitFor blocks until the item with sequence seq has been applied. It
// returns ctx.Err() if ctx ends first and Close's error if the store is
// closed first.
func (p *Progress) WaitFor(ctx context.Context, seq uint64) error {
	for {
		p.mu.Lock()
		if p.applied == nil {
			p.applied = make(chan struct{})
		}
		wake, closed := p.applied, p.closed
		p.mu.Unlock()
		if p.Seq() >= seq {
			return nil
		}
		if closed != nil {
			return closed
		}
		if err := p.block(ctx, wake); err != nil {
			return err
		}
	}
}

// block waits for wake, telling a lingering runner (see Runner.Linger)
// that somebody is waiting, so that it commits at once.
func (p *Progress) block(ctx context.Context, wake <-chan struct{}) error {
	p.waiters.Add(1)
	defer p.waiters.Add(-1)
	select {
	case p.started() <- struct{}{}:
	default:
	}
	select {
	case <-wake:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// waiting reports whether a WaitFor is blocked.
func (p *Progress) waiting() bool { return p.waiters.Load() > 0 }

// started returns the channel a WaitFor signals when it starts to block.
func (p *Progress) started() chan struct{} {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.waitStart == nil {
		p.waitStart = make(chan struct{}, 1)
	}
	return p.waitStart
}

package node

import (
	"context"
	"errors"
	"sync"

	"github.com/clumsies/clumsies/projections"
)

// A hold stops the projector's reading of the ledger for a while, leaving
// the read models open: what is appended meanwhile is applied once the
// hold is released, and WaitApplied waits for it as it would for a slow
// projector. A large publish holds it and applies its own events
// (ownapply.go), so that nobody reads them back from the ledger while
// they are written.
type projHold struct {
	sem chan struct{} // one hold at a time

	mu      sync.Mutex
	stop    context.CancelFunc // ends the running projector's reading; nil while it stands
	on      chan struct{}      // not nil while held; closed on release
	standby chan struct{}      // closed once the projector stands for the hold in force
	stood   bool               // standby is closed
}

// stand says the projector stands for the hold in force. h.mu is held.
func (h *projHold) stand() {
	if !h.stood {
		h.stood = true
		close(h.standby)
	}
}

func newProjHold() *projHold { return &projHold{sem: make(chan struct{}, 1)} }

// holdProjector stops the projector's reading and returns once it stands,
// with the function that lets it go on. The projector does not read until
// then; a second hold waits for the first to be released. It fails only
// when ctx ends first.
func (n *Node) holdProjector(ctx context.Context) (release func(), err error) {
	h := n.hold
	select {
	case h.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	h.mu.Lock()
	on, standby := make(chan struct{}), make(chan struct{})
	h.on, h.standby, h.stood = on, standby, false
	if h.stop != nil {
		h.stop()
	} else {
		h.stand() // no projector reads: nothing to wait for
	}
	h.mu.Unlock()
	var once sync.Once
	release = func() {
		once.Do(func() {
			h.mu.Lock()
			h.on, h.standby = nil, nil
			h.mu.Unlock()
			close(on)
			<-h.sem
		})
	}
	n.mu.Lock()
	done := n.projDone
	n.mu.Unlock()
	select {
	case <-standby:
	case <-done: // stopped for good: there is nothing left to hold
	case <-ctx.Done():
		release()
		return nil, ctx.Err()
	}
	return release, nil
}

// unheld runs fn while no hold is in force, and keeps holds off until it
// returns. The owner's checkpoints go through it: a checkpoint appended
// in the middle of a publish's events would make the publish let the
// projector read (ownapply.go).
func (n *Node) unheld(ctx context.Context, fn func(context.Context) (bool, error)) (bool, error) {
	select {
	case n.hold.sem <- struct{}{}:
	case <-ctx.Done():
		return false, ctx.Err()
	}
	defer func() { <-n.hold.sem }()
	return fn(ctx)
}

// runProjector runs store's projector until ctx ends or it fails,
// standing while a hold is in force.
func (n *Node) runProjector(ctx context.Context, store *projections.Store) error {
	h := n.hold
	for {
		h.mu.Lock()
		on := h.on
		if on != nil {
			h.stand()
		}
		h.mu.Unlock()
		if on != nil {
			select {
			case <-on:
			case <-ctx.Done():
				return ctx.Err()
			}
			continue
		}
		run, stop := context.WithCancel(ctx)
		h.mu.Lock()
		if h.on != nil { // a hold came in meanwhile
			h.mu.Unlock()
			stop()
			continue
		}
		h.stop = stop
		h.mu.Unlock()
		err := store.Run(run, n.Log)
		h.mu.Lock()
		h.stop = nil
		h.mu.Unlock()
		// Only a hold cancels run alone; a failure is still one.
		held := run.Err() != nil && ctx.Err() == nil && (err == nil || errors.Is(err, context.Canceled))
		stop()
		if !held {
			return err
		}
	}
}

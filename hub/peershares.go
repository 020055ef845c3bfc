package hub

import (
	"context"
	"errors"
	"sync"
)

// peerShares runs the waits for the other hubs' confirmation of nodes'
// accounts (awaitPeers), one per node at a time, outside the caller: the
// registry's watch, which is what sets up the accounts of nodes joined
// at other hubs, must never wait for another hub's watch. Two hubs each
// joining a node, each watch waiting for the other hub to set up its
// node's account, which only the other's blocked watch would do, held
// every join of a cluster's join storm for the whole peersWait.
type peerShares struct {
	ctx  context.Context
	stop context.CancelFunc
	wg   sync.WaitGroup

	mu      sync.Mutex
	running map[string]chan struct{} // node id -> closed once shared
	asked   map[string]bool          // nodes read from the registry's leader now (askedAccount)
	closed  bool                     // close was called: nothing starts
}

func newPeerShares() *peerShares {
	ctx, stop := context.WithCancel(context.Background())
	return &peerShares{ctx: ctx, stop: stop, running: map[string]chan struct{}{}, asked: map[string]bool{}}
}

// close ends the waits under way and returns once they have ended.
func (p *peerShares) close() {
	p.mu.Lock()
	p.closed = true
	p.mu.Unlock()
	p.stop()
	p.wg.Wait()
}

// start runs fn in a goroutine close waits for, unless close was
// called; the caller holds mu.
func (p *peerShares) start(fn func()) bool {
	if p.closed {
		return false
	}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		fn()
	}()
	return true
}

// shareAccount returns a channel closed once node id is shared: every
// routed hub has set up its account (or peersWait passed, which is
// logged), so that the aggregate may source it. Setting up a source
// makes the stream leader subscribe in the node's account, and a hub
// that hears of that interest before it knows the account drops it for
// good: every write of the sources names only nodes known everywhere.
func (h *Hub) shareAccount(id string) <-chan struct{} {
	p := h.shares
	p.mu.Lock()
	defer p.mu.Unlock()
	if ch, ok := p.running[id]; ok {
		return ch
	}
	ch := make(chan struct{})
	started := !h.accounts.isShared(id) && p.start(func() {
		if err := h.awaitPeers(p.ctx, id); err != nil && p.ctx.Err() == nil {
			h.logger.Warn("a hub of the cluster may miss the node's link until the link is made again", "node", id, "err", err)
		}
		h.accounts.share(id)
		p.mu.Lock()
		delete(p.running, id)
		p.mu.Unlock()
		close(ch)
	})
	if !started {
		close(ch)
		return ch
	}
	p.running[id] = ch
	return ch
}

// shareAccounts is shareAccount for every active node of the registry;
// the channel is closed once all of them are shared, and is nil if all
// of them were already.
func (h *Hub) shareAccounts() <-chan struct{} {
	var waits []<-chan struct{}
	for _, n := range h.reg.nodes() {
		if n.Active() && !h.accounts.isShared(n.ID) {
			waits = append(waits, h.shareAccount(n.ID))
		}
	}
	if len(waits) == 0 {
		return nil
	}
	all := make(chan struct{})
	go func() {
		for _, w := range waits {
			<-w
		}
		close(all)
	}()
	return all
}

// writeSourcesAfter writes the aggregate's sources, without waiting for
// the write, once after is closed (shareAccounts: the nodes it waited for
// are then sourced), or at once if after is nil, if this hub is the
// writer then (sourcewriter.go): the others leave it to the writer, whose
// own copy of the registry gets the same change. A failed write is
// logged; the next change of the registry writes again.
func (h *Hub) writeSourcesAfter(after <-chan struct{}) {
	p := h.shares
	p.mu.Lock()
	defer p.mu.Unlock()
	p.start(func() {
		if after != nil {
			select {
			case <-after:
			case <-p.ctx.Done():
				return
			}
		}
		if !h.writesSources() {
			return
		}
		if err := h.sourceWrites.sync(p.ctx); err != nil && p.ctx.Err() == nil && !errors.Is(err, errNotWriter) { // the new writer writes them
			h.logger.Warn("write the aggregate's sources after a change of the registry", "err", err)
		}
	})
}

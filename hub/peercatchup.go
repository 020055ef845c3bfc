package hub

import (
	"context"
	"time"
)

// How a hub asked about a node it lacks reads it from the registry.
const (
	// askedGrace is how long the watch has to deliver an asked-about node
	// before it is read from the registry's leader: a question comes
	// right after the node is written, and usually just before the watch
	// delivers it.
	askedGrace = time.Second
	// askedCatchUpTimeout bounds a read of an asked-about node from the
	// registry's leader and the set-up of its account.
	askedCatchUpTimeout = 5 * time.Second
)

// askedAccount sets up node id's account, read from the registry's
// leader, when another hub asks about it (awaitPeers) before this hub's
// copy holds it: the asker wrote the node and waits for every hub to set
// it up before the node is sourced and links. The copy follows the
// bucket through a watch that can lag (its consumer lost with a server
// of the cluster is noticed only after seconds, registrystall.go), and a
// node that linked at another hub meanwhile had its interest dropped
// here for good (nats-server#8560): its source, if this hub leads its
// shard, never reached it. The account set up is announced as the
// watch's would be (Hub.announceAccount). The watch has askedGrace to
// deliver the node first; one read per node at a time; a node the
// leader does not hold is left for the watch.
func (h *Hub) askedAccount(id string) {
	p := h.shares
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.asked[id] {
		return
	}
	if p.start(func() {
		defer func() {
			p.mu.Lock()
			delete(p.asked, id)
			p.mu.Unlock()
		}()
		select {
		case <-p.ctx.Done():
			return
		case <-time.After(askedGrace):
		}
		if h.accounts.ready(id) {
			return
		}
		ctx, cancel := context.WithTimeout(p.ctx, askedCatchUpTimeout)
		defer cancel()
		if err := h.catchUpAsked(ctx, id); err != nil && p.ctx.Err() == nil {
			h.logger.Warn("read a node another hub asked about from the registry's leader", "node", id, "err", err)
		}
	}) {
		p.asked[id] = true
	}
}

// catchUpAsked reads node id from the registry's leader into the copy
// and, if the copy lacked it, applies it as the watch would.
func (h *Hub) catchUpAsked(ctx context.Context, id string) error {
	applied, err := h.reg.catchUp(ctx, []string{id})
	if err != nil || !applied {
		return err
	}
	h.logger.Info("the registry's copy lagged: read a node another hub asked about from its leader", "node", id)
	return h.syncEntry(ctx, keyNodePrefix+id)
}

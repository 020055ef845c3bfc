package hub

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
)

// accountsSubject is where the hubs of a cluster ask each other, in the
// hub's account, whether a node's account is set up: the request holds
// the node id, and a hub that has set it up answers with its server name.
const accountsSubject = "clumsieshub.accounts"

// readySubject is where the answers about node id's account go: the
// asker names it as the question's reply subject, and a hub announces
// there, with its server name, each account it sets up after a change of
// the registry. A hub asked before it had the account answers as soon as
// it has it, not when it is asked again.
func readySubject(id string) string { return accountsSubject + ".ready." + id }

// How a join waits for the other hubs of its cluster.
const (
	// peersWait bounds the wait; a join answers after it even if a hub
	// has not confirmed (it logs which).
	peersWait = 10 * time.Second
	// peersAskAgain is how long the asker waits for answers before it
	// asks again: the hubs announce what they set up, so asking again
	// only covers a question or an announcement lost on the way (a
	// route down for a moment, a hub of an older release).
	peersAskAgain = time.Second
)

// answerAccounts answers the other hubs' accountsSubject questions until
// the connection closes.
func (h *Hub) answerAccounts() error {
	_, err := h.nc.Subscribe(accountsSubject, func(m *nats.Msg) {
		if h.accounts.ready(string(m.Data)) {
			_ = m.Respond([]byte(h.ns.Name())) // the asker asks again
		}
	})
	if err != nil {
		return fmt.Errorf("answer the cluster's questions about accounts: %w", err)
	}
	return nil
}

// announceAccount tells the hubs waiting for node id's account that this
// one has set it up.
func (h *Hub) announceAccount(id string) {
	if h.nc != nil {
		_ = h.nc.Publish(readySubject(id), []byte(h.ns.Name())) // the askers ask again
	}
}

// awaitPeers returns once every hub routed to this one has set up node
// id's account, or fails after peersWait naming those that have not. A
// hub that receives interest in an account it does not know yet drops
// that interest for good (nats-server#8560): a join answers after this,
// and its node is sourced only after it (shareAccount), so that neither
// the aggregate's source nor the node's link, which comes once the join
// is answered, makes interest a hub cannot place. A hub not routed now
// sets the account up when it starts, before it hears of either.
func (h *Hub) awaitPeers(ctx context.Context, id string) error {
	peers := h.routedPeers()
	if len(peers) == 0 {
		return nil
	}
	// Subscribed before the question is sent: the subscription's interest
	// reaches each peer before the question does (one route carries the
	// hub's account), so neither an answer nor an announcement is lost.
	sub, err := h.nc.SubscribeSync(readySubject(id))
	if err != nil {
		return fmt.Errorf("ask the cluster about %s's account: %w", id, err)
	}
	defer sub.Unsubscribe()
	deadline := time.Now().Add(peersWait)
	for time.Now().Before(deadline) && ctx.Err() == nil {
		if err := h.nc.PublishRequest(accountsSubject, readySubject(id), []byte(id)); err != nil {
			return fmt.Errorf("ask the cluster about %s's account: %w", id, err)
		}
		round := time.Now().Add(peersAskAgain)
		if round.After(deadline) {
			round = deadline
		}
		for len(peers) > 0 {
			m, err := sub.NextMsg(time.Until(round))
			if err != nil {
				if errors.Is(err, nats.ErrTimeout) {
					break
				}
				return fmt.Errorf("ask the cluster about %s's account: %w", id, err)
			}
			peers = slices.DeleteFunc(peers, func(p string) bool { return p == string(m.Data) })
		}
		if len(peers) == 0 {
			return nil
		}
	}
	return fmt.Errorf("hubs %v have not set up the account of %s after %s", peers, id, peersWait)
}

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
	closed  bool                     // close was called: nothing starts
}

func newPeerShares() *peerShares {
	ctx, stop := context.WithCancel(context.Background())
	return &peerShares{ctx: ctx, stop: stop, running: map[string]chan struct{}{}}
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
// are then sourced), or at once if after is nil. A failed write is
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
		if err := h.sourceWrites.sync(p.ctx); err != nil && p.ctx.Err() == nil {
			h.logger.Warn("write the aggregate's sources after a change of the registry", "err", err)
		}
	})
}

// routedPeers are the names of the hubs this one has routes to now.
func (h *Hub) routedPeers() []string {
	rz, err := h.ns.Routez(&server.RoutezOptions{})
	if err != nil {
		return nil
	}
	var out []string
	for _, r := range rz.Routes {
		if r.RemoteName != "" && !slices.Contains(out, r.RemoteName) {
			out = append(out, r.RemoteName)
		}
	}
	return out
}

package hub

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
)

// accountsSubject is where the hubs of a cluster ask each other, in the
// hub's account, whether a node's account is set up: the request holds
// the node id, and a hub that has set it up answers with its server name.
const accountsSubject = "clumsieshub.accounts"

// How a join waits for the other hubs of its cluster.
const (
	// peersWait bounds the wait; a join answers after it even if a hub
	// has not confirmed (it logs which).
	peersWait = 10 * time.Second
	// peersRound is how long each round of the question collects answers.
	peersRound = 250 * time.Millisecond
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
	inbox := h.nc.NewInbox()
	sub, err := h.nc.SubscribeSync(inbox)
	if err != nil {
		return fmt.Errorf("ask the cluster about %s's account: %w", id, err)
	}
	defer sub.Unsubscribe()
	deadline := time.Now().Add(peersWait)
	for time.Now().Before(deadline) && ctx.Err() == nil {
		if err := h.nc.PublishRequest(accountsSubject, inbox, []byte(id)); err != nil {
			return fmt.Errorf("ask the cluster about %s's account: %w", id, err)
		}
		round := time.Now().Add(peersRound)
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

// shareAccount waits until every routed hub has set up node id's account
// (awaitPeers), then lets the aggregate source the node. Setting up a
// source makes the stream leader subscribe in the node's account, and a
// hub that hears of that interest before it knows the account drops it
// for good: every write of the sources names only nodes known everywhere.
// A hub that has not confirmed after peersWait is logged, and the node is
// sourced anyway.
func (h *Hub) shareAccount(ctx context.Context, id string) {
	if h.accounts.isShared(id) {
		return
	}
	if err := h.awaitPeers(ctx, id); err != nil {
		h.logger.Warn("a hub of the cluster may miss the node's link until the link is made again", "node", id, "err", err)
	}
	h.accounts.share(id)
}

// shareAccounts is shareAccount for every active node of the registry.
func (h *Hub) shareAccounts(ctx context.Context) {
	for _, n := range h.reg.nodes() {
		if n.Active() {
			h.shareAccount(ctx, n.ID)
		}
	}
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

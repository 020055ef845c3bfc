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
// the connection closes. A hub asked about a node whose account it has
// not set up reads the node from the registry's leader (askedAccount)
// rather than wait for its watch, and announces the account once set up.
func (h *Hub) answerAccounts() error {
	_, err := h.nc.Subscribe(accountsSubject, func(m *nats.Msg) {
		id := string(m.Data)
		if h.accounts.ready(id) {
			_ = m.Respond([]byte(h.ns.Name())) // the asker asks again
			return
		}
		h.askedAccount(id)
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

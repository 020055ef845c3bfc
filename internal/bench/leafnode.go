package main

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"

	embeddednats "github.com/clumsies/clumsies/embedded-nats"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/events/natsjs"
	"github.com/clumsies/clumsies/hub/hubwire"
	"github.com/clumsies/clumsies/hublink"
	"github.com/clumsies/clumsies/workspace"
)

// leafMaxStore is a light node's JetStream store limit: a few thousand
// events fit.
const leafMaxStore = 64 << 20

// leafNode is a light workspace node: an embedded server of the node's
// domain with its leaf link to a hub, and the workspace's ledger stream
// alone (no read models, no owner). The hub sees what it sees of a real
// workspace: the same link, the same stream, the same events.
type leafNode struct {
	ws   string
	id   hublink.Identity
	dir  string
	url  string // the hub's leaf URL it dials
	srv  *embeddednats.Server
	nc   *nats.Conn
	log  *natsjs.Log
	mu   sync.Mutex // serializes appends, which number the events
	next int
	// spread, when set, dates each session of the events appended over
	// that many days back from today (hubstats' history): a session's
	// events fall on one day.
	spread int
	// retries counts the requests to its own server tried again (again),
	// shared by the run's nodes.
	retries *atomic.Int64
}

// joinLeaf joins a new node of a new workspace through hp's API, as `hub
// join` does: an invite made with the admin token, then the node's own
// join request with its public key.
func joinLeaf(ctx context.Context, b *bench, hp *hubProc, team string) (*leafNode, error) {
	ln := &leafNode{ws: workspace.NewWorkspaceID(), dir: b.tempDir("leaf"), retries: &b.nodeRetries}
	var err error
	if ln.id, err = hublink.NewIdentity(); err != nil {
		return nil, err
	}
	token, err := hp.admin().Invite(ctx, hubwire.InviteRequest{WorkspaceID: ln.ws, Team: team})
	if err != nil {
		return nil, err
	}
	t, err := hubwire.ParseJoinToken(token)
	if err != nil {
		return nil, err
	}
	pub, err := ln.id.PublicKey()
	if err != nil {
		return nil, err
	}
	req := hubwire.JoinRequest{Secret: t.Secret, NodeID: ln.id.NodeID, PublicKey: pub, WorkspaceID: ln.ws}
	for attempt := 1; ; attempt++ {
		_, err := hubwire.NewClient(t.HTTP, "").Join(ctx, req)
		if err == nil {
			break
		}
		// In a loaded cluster the invite, written a moment before, can
		// be read at a replica that has not applied it yet: the token
		// is then unknown for a moment. Asked again, and counted.
		var he *hubwire.Error
		if attempt == 5 || !errors.As(err, &he) || he.Code != hubwire.CodeForbidden {
			return nil, err
		}
		b.unknownInvites.Add(1)
		time.Sleep(time.Second)
	}
	ln.url = t.Leaf
	return ln, nil
}

// start starts the node's server, which dials the hub, and opens its
// ledger.
func (ln *leafNode) start(ctx context.Context) error {
	leaf, err := ln.id.Leaf(ln.url)
	if err != nil {
		return err
	}
	leaf.Quiet = true
	ln.srv = &embeddednats.Server{Dir: ln.dir, Sync: embeddednats.SyncInterval, MaxStore: leafMaxStore, Domain: ln.id.NodeID, Leaf: leaf}
	if err := ln.srv.Start(); err != nil {
		return fmt.Errorf("start node %s: %w", ln.id.NodeID, err)
	}
	// A thousand servers starting at once in this process: give the
	// in-process handshake time, and try it again (connectAgain).
	if ln.nc, err = connectAgain(ln.retries, func() (*nats.Conn, error) { return ln.srv.Connect(nats.Timeout(time.Minute)) }); err != nil {
		return fmt.Errorf("connect to node %s: %w", ln.id.NodeID, err)
	}
	err = ln.again(func() error {
		var err error
		ln.log, err = natsjs.Open(ctx, ln.nc, ln.ws, natsjs.Options{})
		return err
	})
	if err != nil {
		return fmt.Errorf("open the ledger of node %s: %w", ln.id.NodeID, err)
	}
	return nil
}

// connectAgain runs connect, again while it fails, nodeTries times in
// all, counting each retry in retries (when not nil). On a loaded machine
// a node's server can send its first ping (which it sends a client to
// measure the round trip) before its answer to the client's handshake,
// and the client then gives up on the connection ("expected 'PONG', got
// 'PING'", nats-server#1174): the node's, not the hub's.
func connectAgain(retries *atomic.Int64, connect func() (*nats.Conn, error)) (*nats.Conn, error) {
	var errs []error
	for try := range nodeTries {
		if try > 0 && retries != nil {
			retries.Add(1)
		}
		nc, err := connect()
		if err == nil {
			return nc, nil
		}
		errs = append(errs, err)
	}
	return nil, errors.Join(errs...)
}

// nodeTries bounds the tries of a light node's request to its own
// server: a thousand of them in the bench process on a loaded machine
// may leave one unanswered within its 5 s (the node's, not the hub's).
const nodeTries = 3

// again runs fn, again while it fails with a timeout, nodeTries times in
// all; each retry is counted (bench.nodeRetries) and reported.
func (ln *leafNode) again(fn func() error) error {
	var err error
	for range nodeTries {
		if err = fn(); !errors.Is(err, context.DeadlineExceeded) {
			return err
		}
		if ln.retries != nil {
			ln.retries.Add(1)
		}
	}
	return err
}

// appendN appends n events and returns the ledger's sequence of the last.
func (ln *leafNode) appendN(ctx context.Context, n int) (uint64, error) {
	ln.mu.Lock()
	defer ln.mu.Unlock()
	var seq uint64
	for range n {
		ev := sampleEvent(ln.ws, ln.next)
		if ln.spread > 0 {
			ev.Time = events.FormatTime(time.Now().AddDate(0, 0, -(ln.next/50)%ln.spread))
		}
		// The same event again is a duplicate its ledger drops.
		tries := 0
		var err error
		seq, err = appendAgain(ctx, appendTries, func(ctx context.Context) (uint64, error) {
			if tries++; tries > 1 && ln.retries != nil {
				ln.retries.Add(1)
			}
			return ln.log.Append(ctx, ev)
		})
		if err != nil {
			return 0, fmt.Errorf("append at node %s: %w", ln.id.NodeID, err)
		}
		ln.next++
	}
	return seq, nil
}

func (ln *leafNode) close() {
	if ln.nc != nil {
		ln.nc.Close()
	}
	if ln.srv != nil {
		_ = ln.srv.Close()
	}
}

package hub_test

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/clumsies/clumsies/hub/hubwire"
	"github.com/clumsies/clumsies/hublink"
	"github.com/clumsies/clumsies/workspace"
)

// stormNode is a workspace clone invited to the hub, not joined yet.
type stormNode struct {
	tn     *testNode
	secret string
}

// inviteNode makes a workspace clone and an invite for it.
func inviteNode(tb testing.TB, th *testHub, team string) *stormNode {
	tb.Helper()
	sn, err := newInvited(tb.TempDir(), th, team)
	if err != nil {
		tb.Fatal(err)
	}
	return sn
}

// inviteNodeErr is inviteNode for a goroutine of the test: it marks the
// test failed, and returns nil, if the invite fails.
func inviteNodeErr(tb testing.TB, th *testHub, team string) *stormNode {
	sn, err := newInvited(tb.TempDir(), th, team)
	if err != nil {
		tb.Errorf("invite: %v", err)
	}
	return sn
}

// newInvited makes a workspace clone in dir and an invite for it.
func newInvited(dir string, th *testHub, team string) (*stormNode, error) {
	ws, _, err := workspace.Init(filepath.Join(dir, "repo"))
	if err != nil {
		return nil, err
	}
	id, err := hublink.NewIdentity()
	if err != nil {
		return nil, err
	}
	token, err := th.h.Invite(context.Background(), ws.ID(), team, "ann")
	if err != nil {
		return nil, err
	}
	jt, err := hubwire.ParseJoinToken(token)
	if err != nil {
		return nil, err
	}
	return &stormNode{tn: &testNode{ws: ws, id: id, url: jt.Leaf}, secret: jt.Secret}, nil
}

// joinAll joins nodes at once and fails the test if any join fails.
func joinAll(t *testing.T, th *testHub, nodes []*stormNode) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make(chan error, len(nodes))
	for _, sn := range nodes {
		wg.Go(func() {
			pub, _ := sn.tn.id.PublicKey()
			if _, err := th.h.Join(context.Background(), sn.secret, sn.tn.id.NodeID, pub, sn.tn.ws.ID(), ""); err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatalf("join: %v", err)
	}
}

// TestJoin_Storm joins 30 nodes at once, then 10 more while the first 30
// link and append: the hub stays up, sources every node and counts every
// event once. Joins used to reload nats-server's configuration, and a
// reload racing the links' sources wedged the hub.
func TestJoin_Storm(t *testing.T) {
	const first, more, each = 30, 10, 5
	th := newTestHub(t)
	nodes := make([]*stormNode, first+more)
	for i := range nodes {
		nodes[i] = inviteNode(t, th, []string{"red", "blue"}[i%2])
	}
	joinAll(t, th, nodes[:first])
	t.Cleanup(func() {
		for _, sn := range nodes {
			sn.tn.close()
		}
	})

	var mu sync.Mutex
	want := map[string]bool{}
	byNode := map[string]int{}
	linkAndAppend := func(t *testing.T, sn *stormNode) {
		sn.tn.open(t)
		ids := sn.tn.appendN(t, each)
		mu.Lock()
		addAll(want, ids)
		byNode[sn.tn.id.NodeID] += len(ids)
		mu.Unlock()
	}
	// t.Fatal must be called from the test's goroutine: the appends are
	// made in subtests run in parallel, which may.
	t.Run("group", func(t *testing.T) {
		for _, sn := range nodes[:first] {
			t.Run(sn.tn.id.NodeID, func(t *testing.T) {
				t.Parallel()
				linkAndAppend(t, sn)
			})
		}
		t.Run("more joins", func(t *testing.T) {
			t.Parallel()
			joinAll(t, th, nodes[first:])
			for _, sn := range nodes[first:] {
				linkAndAppend(t, sn)
			}
		})
	})
	if t.Failed() {
		return
	}
	checkExactly(t, th, want)
	got := map[string]int{}
	for _, subj := range aggregate(t, th) {
		for id := range byNode {
			if strings.Contains(subj, "."+id+".") {
				got[id]++
			}
		}
	}
	for id, n := range byNode {
		if got[id] != n {
			t.Errorf("node %s: %d events in the aggregate, want %d", id, got[id], n)
		}
	}
}

// joinAt joins sn at th, once; a nil sn (its invite failed) is not
// joined.
func joinAt(th *testHub, sn *stormNode) error {
	if sn == nil {
		return nil
	}
	pub, _ := sn.tn.id.PublicKey()
	_, err := th.h.Join(context.Background(), sn.secret, sn.tn.id.NodeID, pub, sn.tn.ws.ID(), "")
	return err
}

// joinEach joins each of sns at at(i), inFlight at once, and calls then
// with each join's outcome, from the join's goroutine; it returns once
// every join answered.
func joinEach(sns []*stormNode, inFlight int, at func(i int) *testHub, then func(i int, err error)) {
	var wg sync.WaitGroup
	sem := make(chan struct{}, inFlight)
	for i, sn := range sns {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			then(i, joinAt(at(i), sn))
		})
	}
	wg.Wait()
}

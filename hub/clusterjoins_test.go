package hub_test

import (
	"log/slog"
	"testing"
)

// TestCluster_JoinsAtOnceConfirmedByPeers joins 12 nodes at the three
// hubs of a cluster, 8 at once: each join's wait for the other hubs to
// set up the node's account ends because they confirmed it, never on
// the wait's bound (which it logs), and when a join answers every hub
// has the account. The registry's watch, which sets up the accounts of
// nodes joined elsewhere, used to wait for the other hubs itself: two
// hubs, each waiting in its watch for the other to set up the node it
// had just joined, held each other until the bound, and every join of a
// cluster took 10 s.
func TestCluster_JoinsAtOnceConfirmedByPeers(t *testing.T) {
	const nodes, inFlight = 12, 8
	w := &warnings{}
	hubs := newTestClusterLogged(t, slog.New(w))
	sns := make([]*stormNode, nodes)
	for i := range sns {
		sns[i] = inviteNode(t, hubs[i%3], "red")
	}
	joinEach(sns, inFlight, func(i int) *testHub { return hubs[i%3] }, func(i int, err error) {
		if err != nil {
			t.Errorf("join at hub %d: %v", i%3+1, err)
			return
		}
		for k, th := range hubs {
			if !th.h.AccountReady(sns[i].tn.id.NodeID) {
				t.Errorf("hub %d has not set up the account of %s when its join answered", k+1, sns[i].tn.id.NodeID)
			}
		}
	})
	if t.Failed() {
		t.FailNow()
	}
	if n := w.count("may miss the node's link"); n > 0 {
		t.Fatalf("%d waits for the other hubs ended on their bound, not on the hubs' confirmation: %v", n, w.msgs)
	}
	for k, th := range hubs {
		if got := len(th.h.Nodes()); got != nodes {
			t.Errorf("hub %d holds %d nodes, want %d", k+1, got, nodes)
		}
	}
}

// TestCluster_JoinWhileAnotherHubWritesSources joins a node at one hub
// while every write of the aggregate's sources at another hub is held:
// that hub still sets up the node's account and confirms it, and the
// join does not wait out its bound. The registry's watch used to wait
// for each write of the sources it asked for; behind a slow write (a
// long source list in a loaded cluster) it fell behind, the joins at
// the other hubs waited out their bound for it, and the nodes were
// sourced before it knew their accounts (nats-server#8560).
func TestCluster_JoinWhileAnotherHubWritesSources(t *testing.T) {
	w := &warnings{}
	hubs := newTestClusterLogged(t, slog.New(w))
	release := hubs[1].h.HoldSources()
	sn := inviteNode(t, hubs[0], "red")
	err := joinAt(hubs[0], sn)
	release()
	if err != nil {
		t.Fatalf("join: %v", err)
	}
	if !hubs[1].h.AccountReady(sn.tn.id.NodeID) {
		t.Fatalf("hub 2 has not set up the account of %s when its join answered", sn.tn.id.NodeID)
	}
	if n := w.count("may miss the node's link"); n > 0 {
		t.Fatalf("the join's wait for the other hubs ended on its bound: %v", w.msgs)
	}
}

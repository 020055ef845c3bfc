package hub_test

import (
	"log/slog"
	"testing"
	"time"
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
// while every write of the sources at the writer (the aggregate's
// leader) is held: the writer still sets up the node's account and
// confirms it while its writes wait, and once they go on the join
// answers without waiting out the bound of the other hubs'
// confirmation. The registry's watch used to wait for each write of the
// sources it asked for; behind a slow write (a long source list in a
// loaded cluster) it fell behind, the joins at the other hubs waited out
// their bound for it, and the nodes were sourced before it knew their
// accounts (nats-server#8560). The test used to hold the second hub
// whichever hub wrote: when that was the writer, the join waited for the
// held write itself and failed after a minute; when it was not, nothing
// was held that the join needed.
func TestCluster_JoinWhileAnotherHubWritesSources(t *testing.T) {
	w := &warnings{}
	hubs := newTestClusterLogged(t, slog.New(w))
	writer := hubs[writerOf(t, hubs)]
	at := hubs[0]
	if at == writer {
		at = hubs[1]
	}
	sn := inviteNode(t, at, "red")
	release := writer.h.HoldSources()
	joined := make(chan error, 1)
	go func() { joined <- joinAt(at, sn) }()
	deadline := time.Now().Add(wait)
	for !writer.h.AccountReady(sn.tn.id.NodeID) {
		if time.Now().After(deadline) {
			release()
			t.Fatalf("the writer, its writes held, has not set up the account of %s after %s", sn.tn.id.NodeID, wait)
		}
		time.Sleep(10 * time.Millisecond)
	}
	release()
	if err := <-joined; err != nil {
		t.Fatalf("join: %v", err)
	}
	if n := w.count("may miss the node's link"); n > 0 {
		t.Fatalf("the join's wait for the other hubs ended on its bound: %v", w.msgs)
	}
}

package hub_test

import (
	"testing"
	"time"
)

// TestCluster_JoinsAtOnceFillShardsExactly joins 12 nodes at two hubs
// of a cluster, all at once, over shards of three: no shard holds more
// than three nodes, and the 12 fill four shards. Placement used to be
// decided from each hub's copy of the registry, so two hubs joining at
// once both placed a node in a shard with one place left.
func TestCluster_JoinsAtOnceFillShardsExactly(t *testing.T) {
	const nodes = 12
	hubs := newTestCluster(t)
	sns := make([]*stormNode, nodes)
	for i := range sns {
		sns[i] = inviteNode(t, hubs[i%2], "red")
	}
	joinEach(sns, nodes, func(i int) *testHub { return hubs[i%2] }, func(i int, err error) {
		if err != nil {
			t.Errorf("join at hub %d: %v", i%2+1, err)
		}
	})
	if t.Failed() {
		t.FailNow()
	}
	for k, th := range hubs {
		deadline := time.Now().Add(wait)
		for len(th.h.Nodes()) != nodes {
			if time.Now().After(deadline) {
				t.Fatalf("hub %d holds %d nodes, want %d", k+1, len(th.h.Nodes()), nodes)
			}
			time.Sleep(20 * time.Millisecond)
		}
		per := map[int]int{}
		for _, n := range th.h.Nodes() {
			per[n.Shard]++
		}
		for s, c := range per {
			if s < 1 || s > nodes/testShardSize || c > testShardSize {
				t.Fatalf("hub %d: nodes per shard %v, want %d shards of %d", k+1, per, nodes/testShardSize, testShardSize)
			}
		}
		t.Logf("hub %d: nodes per shard %v", k+1, per)
	}
}

package hub_test

import (
	"errors"
	"fmt"
	"sync"
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
	joinAtOnce(t, hubs[:2], nodes)
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

// joinAtOnce invites n nodes, node i at at[i%len(at)], and joins them
// there all at once; it fails the test if a join fails.
func joinAtOnce(t *testing.T, at []*testHub, n int) {
	t.Helper()
	sns := make([]*stormNode, n)
	for i := range sns {
		sns[i] = inviteNode(t, at[i%len(at)], "red")
	}
	var mu sync.Mutex
	var errs []error
	joinEach(sns, n, func(i int) *testHub { return at[i%len(at)] }, func(i int, err error) {
		if err != nil {
			mu.Lock()
			errs = append(errs, fmt.Errorf("join at hub %d: %w", i%len(at)+1, err))
			mu.Unlock()
		}
	})
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
}

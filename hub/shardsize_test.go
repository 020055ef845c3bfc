package hub_test

import (
	"context"
	"maps"
	"testing"
)

// TestShards_SmallerSizeKeepsFullShards starts a hub with shards of 3,
// then starts it again with shards of 2, as an upgrade to a release with
// a smaller ShardSize does: every node keeps the shard its registry entry
// names (shard 1 holds 3 nodes, one more than the new size), every shard
// still sources its nodes and their events are counted once; new joins
// go to the first shard with room under the new size, and a shard that
// revokes bring under it takes joins again.
func TestShards_SmallerSizeKeepsFullShards(t *testing.T) {
	th := newTestHub(t)
	var nodes []*stormNode
	join := func() *stormNode {
		t.Helper()
		sn := inviteNode(t, th, "red")
		joinAll(t, th, []*stormNode{sn}) // one at a time: the order places them
		nodes = append(nodes, sn)
		return sn
	}
	for range 5 {
		join()
	}
	wantShards(t, th, nodes, 1, 1, 1, 2, 2)
	want := map[string]bool{}
	for _, sn := range nodes {
		sn.tn.open(t)
		t.Cleanup(sn.tn.close)
		addAll(want, sn.tn.appendN(t, 2))
	}
	checkExactly(t, th, want)
	before := placements(th)

	th.stop()
	th.cfg.SetShardSize(2)
	th.start(t)
	if after := placements(th); !maps.Equal(after, before) {
		t.Fatalf("the restart with shards of 2 moved nodes: %v, before %v", after, before)
	}
	checkStreams(t, th, 2)
	for _, sn := range nodes {
		addAll(want, sn.tn.appendN(t, 1))
	}
	checkExactly(t, th, want)

	// Shards 1 (3 nodes) and 2 (2 nodes) are full under the new size.
	join()
	join()
	join()
	wantShards(t, th, nodes, 1, 1, 1, 2, 2, 3, 3, 4)
	checkStreams(t, th, 4)

	// One revoke leaves shard 1 with 2 nodes, still full; a second leaves
	// it 1, and the next join takes the room.
	revoke := func(sn *stormNode) {
		t.Helper()
		if _, err := th.h.Revoke(context.Background(), sn.tn.id.NodeID); err != nil {
			t.Fatal(err)
		}
	}
	revoke(nodes[0])
	if got := shardOf(th, join().tn.id.NodeID); got != 4 {
		t.Fatalf("the join after one revoke in shard 1 is in shard %d, want 4 (shard 1 still holds 2, the new size)", got)
	}
	revoke(nodes[1])
	if got := shardOf(th, join().tn.id.NodeID); got != 1 {
		t.Fatalf("the join after two revokes in shard 1 is in shard %d, want 1 (it holds 1, under the new size)", got)
	}
	checkStreams(t, th, 4)
	addAll(want, nodes[2].tn.appendN(t, 2))
	checkExactly(t, th, want)
}

// wantShards checks the shard of each of nodes, in order.
func wantShards(t *testing.T, th *testHub, nodes []*stormNode, shards ...int) {
	t.Helper()
	for i, sn := range nodes {
		if got := shardOf(th, sn.tn.id.NodeID); got != shards[i] {
			t.Fatalf("node %d of %d is in shard %d, want the shards %v", i+1, len(nodes), got, shards)
		}
	}
}

// placements is the shard of each node th's registry holds.
func placements(th *testHub) map[string]int {
	out := map[string]int{}
	for _, n := range th.h.Nodes() {
		out[n.ID] = n.Shard
	}
	return out
}

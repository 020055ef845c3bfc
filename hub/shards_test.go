package hub_test

import (
	"context"
	"testing"
)

// TestShards_EveryNodeOnce runs ten nodes over shards of three: joined
// at once, each is placed in the first shard with room (four shards),
// its shard sources it and the aggregate sources the shards; every event
// is counted once and every node's chain holds (the sequences come from
// the shards' copies). A revoked node's place goes to the next join, and
// the events appended while the hub is down arrive once after it starts
// again.
func TestShards_EveryNodeOnce(t *testing.T) {
	th := newTestHub(t)
	nodes := make([]*stormNode, 10)
	for i := range nodes {
		nodes[i] = inviteNode(t, th, []string{"red", "blue"}[i%2])
	}
	joinAll(t, th, nodes)
	checkPlaces(t, th, 4)
	checkStreams(t, th, 4)

	want := map[string]bool{}
	seqs := map[string]int{}
	appendEach := func(tns []*testNode, n int) {
		for _, tn := range tns {
			addAll(want, tn.appendN(t, n))
			seqs[tn.id.NodeID] += n
		}
	}
	var linked []*testNode
	for _, sn := range nodes {
		sn.tn.open(t)
		t.Cleanup(sn.tn.close)
		linked = append(linked, sn.tn)
	}
	appendEach(linked, 4)
	checkExactly(t, th, want)

	// The revoked node leaves its shard's sources; the next join takes
	// its place there.
	gone := linked[1]
	n, err := th.h.Revoke(context.Background(), gone.id.NodeID)
	if err != nil {
		t.Fatal(err)
	}
	delete(seqs, gone.id.NodeID)
	gone.close()
	linked = append(linked[:1], linked[2:]...)
	late := inviteNode(t, th, "red")
	joinAll(t, th, []*stormNode{late})
	if got := shardOf(th, late.tn.id.NodeID); got != n.Shard {
		t.Fatalf("the node joined after a revoke is in shard %d, want the revoked node's %d", got, n.Shard)
	}
	checkPlaces(t, th, 4)
	checkStreams(t, th, 4)
	late.tn.open(t)
	t.Cleanup(late.tn.close)
	linked = append(linked, late.tn)
	appendEach(linked, 2)
	checkExactly(t, th, want)

	th.stop()
	appendEach(linked, 3)
	th.start(t)
	checkExactly(t, th, want)
	for id, seq := range seqs {
		c, err := th.h.NodeChain(id, 0)
		if err != nil {
			t.Fatal(err)
		}
		if c.Through != uint64(seq) || c.Problem != nil {
			t.Errorf("node %s's chain runs through %d (problem %+v), want %d without a problem", id, c.Through, c.Problem, seq)
		}
	}
}

// checkPlaces checks that the registry's active nodes fill shards 1 to
// shards, at most testShardSize each.
func checkPlaces(t *testing.T, th *testHub, shards int) {
	t.Helper()
	per := map[int]int{}
	for _, n := range th.h.Nodes() {
		if n.Active() {
			per[n.Shard]++
		}
	}
	for k, c := range per {
		if k < 1 || k > shards || c > testShardSize {
			t.Fatalf("active nodes per shard %v, want shards 1 to %d of at most %d", per, shards, testShardSize)
		}
	}
}

// shardOf is node id's shard in th's registry.
func shardOf(th *testHub, id string) int {
	for _, n := range th.h.Nodes() {
		if n.ID == id {
			return n.Shard
		}
	}
	return 0
}

package hub_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/clumsies/clumsies/hub"
	"github.com/clumsies/clumsies/hub/hubwire"
)

// TestShards_LostShardMadeAgain loses a shard stream twice: deleted
// under a running hub, then its store removed while the hub is down.
// Each time the hub makes it again, the aggregate sources the new shard
// from its start, and every event the nodes append after counts once,
// each node's chain whole. The read models rebuilt afterwards from the
// aggregate, whose older messages name copies the new shard does not
// hold, count the same events and refuse none; the chains of the lost
// shard's nodes run through their last event, and show at most the
// spans the hub could no longer check as missing.
func TestShards_LostShardMadeAgain(t *testing.T) {
	th := newTestHub(t)
	nodes := make([]*stormNode, testShardSize+1) // shard 1 full, one node in shard 2
	for i := range nodes {
		nodes[i] = inviteNode(t, th, "red")
	}
	joinAll(t, th, nodes)
	want := map[string]bool{}
	seqs := map[string]int{}
	appendEach := func(n int) {
		for _, sn := range nodes {
			addAll(want, sn.tn.appendN(t, n))
			seqs[sn.tn.id.NodeID] += n
		}
	}
	for _, sn := range nodes {
		sn.tn.open(t)
		t.Cleanup(sn.tn.close)
	}
	appendEach(4)
	checkExactly(t, th, want)
	// Two of shard 1's three nodes leave: the shard made again holds
	// fewer messages than the one lost (the last node's 4 and what
	// follows, against 12), so that an aggregate resuming the new shard
	// after the old one's last sequence would take nothing from it.
	revoked := 0
	for _, sn := range slices.Clone(nodes) {
		if revoked == 2 || shardOf(th, sn.tn.id.NodeID) != 1 {
			continue
		}
		if _, err := th.h.Revoke(context.Background(), sn.tn.id.NodeID); err != nil {
			t.Fatal(err)
		}
		revoked++
		sn.tn.close()
		delete(seqs, sn.tn.id.NodeID)
		nodes = slices.DeleteFunc(nodes, func(o *stormNode) bool { return o == sn })
	}
	// The links' kicks are confirmed within a few seconds; a kick still
	// under way would write the shard's sources, and so make it again,
	// by itself.
	time.Sleep(3 * time.Second)

	js, ctx := hubJS(t, th)
	if err := js.DeleteStream(ctx, hubwire.ShardStream(1)); err != nil {
		t.Fatalf("delete shard 1: %v", err)
	}
	appendEach(3)
	checkExactly(t, th, want)
	checkChainsThrough(t, th, seqs, nil)

	th.stop()
	if err := os.RemoveAll(filepath.Join(th.cfg.DataDir(), "jetstream", "HUB", "streams", hubwire.ShardStream(1))); err != nil {
		t.Fatal(err)
	}
	appendEach(2)
	th.start(t)
	checkExactly(t, th, want)
	checkChainsThrough(t, th, seqs, nil)

	th.stop()
	if _, err := hub.Rebuild(context.Background(), th.cfg, nil); err != nil {
		t.Fatalf("rebuild: %v", err)
	}
	th.start(t)
	checkExactly(t, th, want)
	lost := map[string]bool{}
	for _, n := range th.h.Nodes() {
		lost[n.ID] = n.Shard == 1
	}
	checkChainsThrough(t, th, seqs, lost)
}

// checkChainsThrough checks that the hub's chain of each node of seqs
// runs through its sequence there, without a problem; for a node lost
// names, a problem is allowed if it says messages are missing.
func checkChainsThrough(t *testing.T, th *testHub, seqs map[string]int, lost map[string]bool) {
	t.Helper()
	for id, seq := range seqs {
		c, err := th.h.NodeChain(id, 0)
		if err != nil {
			t.Fatal(err)
		}
		missing := c.Problem != nil && lost[id] && strings.HasPrefix(c.Problem.Reason, "missing")
		if c.Through != uint64(seq) || c.Problem != nil && !missing {
			t.Errorf("node %s's chain runs through %d (problem %+v), want %d without a problem", id, c.Through, c.Problem, seq)
		}
	}
}

// TestCluster_LostShardMadeAgain deletes a shard stream of a cluster of
// three hubs: the hub that writes the sources makes it again, and every
// hub counts what its last node appends after, once. Two of the shard's
// three nodes leave first, so that the new shard holds fewer messages
// than the one lost.
func TestCluster_LostShardMadeAgain(t *testing.T) {
	hubs := newTestCluster(t)
	want := map[string]bool{}
	var linked []*testNode
	for i := range testShardSize {
		sn := inviteNode(t, hubs[0], "red")
		joinSoon(t, hubs[0], sn)
		sn.tn.url = "nats-leaf://" + hubs[1+i%2].cfg.Leaf
		sn.tn.open(t)
		t.Cleanup(sn.tn.close)
		linked = append(linked, sn.tn)
		addAll(want, sn.tn.appendN(t, 4))
	}
	for k, th := range hubs {
		waitStats(t, fmt.Sprintf("hub %d", k+1), th, len(want), 2*wait)
	}
	for _, tn := range linked[:2] {
		if _, err := hubs[0].h.Revoke(context.Background(), tn.id.NodeID); err != nil {
			t.Fatal(err)
		}
		tn.close()
	}
	time.Sleep(3 * time.Second) // as in TestShards_LostShardMadeAgain

	js, ctx := hubJS(t, hubs[2])
	if err := js.DeleteStream(ctx, hubwire.ShardStream(1)); err != nil {
		t.Fatalf("delete shard 1: %v", err)
	}
	addAll(want, linked[2].appendN(t, 3))
	for k, th := range hubs {
		waitStats(t, fmt.Sprintf("hub %d", k+1), th, len(want), 2*wait)
	}
}

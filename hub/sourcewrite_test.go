package hub_test

import (
	"context"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// TestSources_WrittenOnlyWhenTheyChange makes ten invites (ten changes
// of the registry that leave the aggregate's sources as they are), then
// joins one node: the configuration of the node's shard is updated for
// the join alone, and the aggregate's not at all. The join of a node
// that needs a new shard creates it and updates the aggregate once. Each change of the registry used to write the whole source list
// again, and a storm of joins left a backlog of identical writes that
// kept a hub with 1,000 nodes busy after the joins had answered.
func TestSources_WrittenOnlyWhenTheyChange(t *testing.T) {
	th := newTestHub(t)
	joinAll(t, th, []*stormNode{inviteNode(t, th, "red"), inviteNode(t, th, "red")})
	nc, err := th.h.Connect()
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	var updates, shardUpdates, created atomic.Int64
	if _, err := nc.Subscribe("$JS.EVENT.ADVISORY.STREAM.UPDATED."+hubwire.AggregateStream, func(*nats.Msg) { updates.Add(1) }); err != nil {
		t.Fatal(err)
	}
	if _, err := nc.Subscribe("$JS.EVENT.ADVISORY.STREAM.UPDATED."+hubwire.ShardStream(1), func(*nats.Msg) { shardUpdates.Add(1) }); err != nil {
		t.Fatal(err)
	}
	if _, err := nc.Subscribe("$JS.EVENT.ADVISORY.STREAM.CREATED."+hubwire.ShardStream(2), func(*nats.Msg) { created.Add(1) }); err != nil {
		t.Fatal(err)
	}
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Second) // the joins' own registry changes are applied
	updates.Store(0)
	shardUpdates.Store(0)
	for range 10 {
		if _, err := th.h.Invite(context.Background(), "ws-00000000000000000000000000000001", "red", ""); err != nil {
			t.Fatal(err)
		}
	}
	joinAll(t, th, []*stormNode{inviteNode(t, th, "red")})
	// Let the registry's watch apply the invites and the join.
	time.Sleep(3 * time.Second)
	if n, m := shardUpdates.Load(), updates.Load(); n != 1 || m != 0 {
		t.Fatalf("ten invites and a join updated the shard's configuration %d times and the aggregate's %d times, want once and never", n, m)
	}
	// The shards hold testShardSize nodes: the next join makes shard 2.
	joinAll(t, th, []*stormNode{inviteNode(t, th, "red")})
	time.Sleep(3 * time.Second)
	if n, m, c := shardUpdates.Load(), updates.Load(), created.Load(); n != 1 || m != 1 || c != 1 {
		t.Fatalf("the join into a new shard updated shard 1 %d more times, the aggregate %d times, created shard 2 %d times; want none, once, once", n-1, m, c)
	}
}

// TestSources_JoinOutlastsAFailedWrite makes every write of a hub's
// sources pass its bound while a node joins: the join does not fail with
// the write it waited for, but waits for a write that passes, and once
// the writes pass again it answers with its node sourced. A cluster too
// loaded to apply a write of 1,000 sources within its bound failed every
// join waiting for that write.
func TestSources_JoinOutlastsAFailedWrite(t *testing.T) {
	th := newTestHub(t)
	joinAll(t, th, []*stormNode{inviteNode(t, th, "red")})
	sn := inviteNode(t, th, "red")
	th.h.SetSourceWriteBound(time.Nanosecond)
	joined := make(chan error, 1)
	go func() { joined <- joinAt(th, sn) }()
	select {
	case err := <-joined:
		t.Fatalf("the join answered while every write failed: %v", err)
	case <-time.After(2 * time.Second):
	}
	th.h.SetSourceWriteBound(time.Minute)
	if err := <-joined; err != nil {
		t.Fatalf("join: %v", err)
	}
	if !slices.Contains(sourcedNodes(t, th), sn.tn.id.NodeID) {
		t.Fatalf("node %s is not sourced when its join answered", sn.tn.id.NodeID)
	}
}

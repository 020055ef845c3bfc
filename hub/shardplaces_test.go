package hub_test

import (
	"context"
	"testing"
)

// TestShards_PlacesHeldAndGivenBack: a place taken for a join under way
// counts until the join ends, so a shard with one place left goes to one
// of two joins; a join that fails gives its place back at once, to the
// next join.
func TestShards_PlacesHeldAndGivenBack(t *testing.T) {
	th := newTestHub(t)
	joinAll(t, th, []*stormNode{inviteNode(t, th, "red"), inviteNode(t, th, "red")})
	ctx := context.Background()

	k, release, err := th.h.PlaceNode(ctx, "n-00000000000000aa")
	if err != nil || k != 1 {
		t.Fatalf("the third place: shard %d, %v; want shard 1", k, err)
	}
	early := inviteNode(t, th, "red")
	joinAll(t, th, []*stormNode{early})
	if got := shardOf(th, early.tn.id.NodeID); got != 2 {
		t.Fatalf("a join while shard 1's last place is held went to shard %d, want 2", got)
	}

	release(false)
	late := inviteNode(t, th, "red")
	joinAll(t, th, []*stormNode{late})
	if got := shardOf(th, late.tn.id.NodeID); got != 1 {
		t.Fatalf("a join after a failed join gave its place back went to shard %d, want 1", got)
	}
}

// TestShards_PlaceThatFailsReleases: a place that cannot be taken (the
// join's context ended) still hands its join a release to call, as a
// join does whatever its outcome; it was nil and the join panicked, the
// hub with it. The join that follows takes a place.
func TestShards_PlaceThatFailsReleases(t *testing.T) {
	th := newTestHub(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, release, err := th.h.PlaceNode(ctx, "n-00000000000000ab")
	if err == nil {
		t.Fatal("a place taken with an ended context: no error")
	}
	release(false)
	joinAll(t, th, []*stormNode{inviteNode(t, th, "red")})
}

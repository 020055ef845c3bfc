package hub_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/clumsies/clumsies/hub"
)

// TestJoin_Full: a hub that holds its most nodes, over several shards,
// refuses a new node's join with ErrFull (a conflict for the API) and
// leaves its invite unused, answers a join asked again by a node it
// holds, and takes the refused node once another is revoked, in the
// revoked node's shard.
func TestJoin_Full(t *testing.T) {
	th := newTestHub(t)
	const most = testShardSize + 1 // two shards
	th.h.SetMaxNodes(most)
	var sns []*stormNode
	for i := range most + 1 {
		sns = append(sns, inviteNode(t, th, []string{"red", "blue"}[i%2]))
	}
	joinAll(t, th, sns[:most])
	checkPlaces(t, th, 2)
	join := func(sn *stormNode) error {
		pub, _ := sn.tn.id.PublicKey()
		_, err := th.h.Join(context.Background(), sn.secret, sn.tn.id.NodeID, pub, sn.tn.ws.ID(), "")
		return err
	}
	err := join(sns[most])
	if !errors.Is(err, hub.ErrFull) || errors.Is(err, hub.ErrInvalid) {
		t.Fatalf("a join past the most nodes: %v, want ErrFull", err)
	}
	if len(th.h.Nodes()) != most {
		t.Fatalf("the registry holds %d nodes after a refused join, want %d", len(th.h.Nodes()), most)
	}
	if err := join(sns[0]); err != nil {
		t.Fatalf("a join asked again by a node the full hub holds: %v", err)
	}
	revoked, err := th.h.Revoke(context.Background(), sns[0].tn.id.NodeID)
	if err != nil {
		t.Fatal(err)
	}
	// The registry's watch may apply the node's join after the revoke's
	// own write for a moment: the join is asked again while the hub says
	// it is full, as a user would.
	deadline := time.Now().Add(wait)
	for err = join(sns[most]); errors.Is(err, hub.ErrFull) && time.Now().Before(deadline); err = join(sns[most]) {
		time.Sleep(50 * time.Millisecond)
	}
	if err != nil {
		t.Fatalf("the refused node's join with the same token after a revoke: %v", err)
	}
	if k := shardOf(th, sns[most].tn.id.NodeID); k != revoked.Shard {
		t.Fatalf("the node joined after the revoke is in shard %d, want the revoked node's %d", k, revoked.Shard)
	}
}

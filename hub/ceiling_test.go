package hub_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/clumsies/clumsies/hub"
)

// TestJoin_Full: a hub that holds its most nodes refuses a new node's
// join with ErrFull (a conflict for the API) and leaves its invite
// unused, answers a join asked again by a node it holds, and takes the
// refused node once another is revoked.
func TestJoin_Full(t *testing.T) {
	th := newTestHub(t)
	th.h.SetMaxNodes(2)
	sns := []*stormNode{inviteNode(t, th, "red"), inviteNode(t, th, "red"), inviteNode(t, th, "blue")}
	joinAll(t, th, sns[:2])
	join := func(sn *stormNode) error {
		pub, _ := sn.tn.id.PublicKey()
		_, err := th.h.Join(context.Background(), sn.secret, sn.tn.id.NodeID, pub, sn.tn.ws.ID(), "")
		return err
	}
	err := join(sns[2])
	if !errors.Is(err, hub.ErrFull) || errors.Is(err, hub.ErrInvalid) {
		t.Fatalf("a join past the most nodes: %v, want ErrFull", err)
	}
	if len(th.h.Nodes()) != 2 {
		t.Fatalf("the registry holds %d nodes after a refused join, want 2", len(th.h.Nodes()))
	}
	if err := join(sns[0]); err != nil {
		t.Fatalf("a join asked again by a node the full hub holds: %v", err)
	}
	if _, err := th.h.Revoke(context.Background(), sns[0].tn.id.NodeID); err != nil {
		t.Fatal(err)
	}
	// The registry's watch may apply the node's join after the revoke's
	// own write for a moment: the join is asked again while the hub says
	// it is full, as a user would.
	deadline := time.Now().Add(wait)
	for err = join(sns[2]); errors.Is(err, hub.ErrFull) && time.Now().Before(deadline); err = join(sns[2]) {
		time.Sleep(50 * time.Millisecond)
	}
	if err != nil {
		t.Fatalf("the refused node's join with the same token after a revoke: %v", err)
	}
}

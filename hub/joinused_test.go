package hub_test

import (
	"context"
	"errors"
	"testing"

	"github.com/clumsies/clumsies/hub"
)

// TestJoin_AgainAfterItsInviteWasUsed: a join whose first try used its
// invite and stopped before it wrote the node (its answer lost while the
// registry's leader changed, say) is asked again with the same token, id
// and key and registers the node; another node with that token is still
// refused.
func TestJoin_AgainAfterItsInviteWasUsed(t *testing.T) {
	th := newTestHub(t)
	sn := inviteNode(t, th, "red")
	other := inviteNode(t, th, "red")
	pub, _ := sn.tn.id.PublicKey()
	ctx := context.Background()
	if err := th.h.UseInviteFor(ctx, sn.secret, sn.tn.id.NodeID, pub); err != nil {
		t.Fatal(err)
	}
	otherPub, _ := other.tn.id.PublicKey()
	if _, err := th.h.Join(ctx, sn.secret, other.tn.id.NodeID, otherPub, sn.tn.ws.ID(), ""); !errors.Is(err, hub.ErrBadInvite) {
		t.Fatalf("another node's join with a used token: %v, want ErrBadInvite", err)
	}
	n, err := th.h.Join(ctx, sn.secret, sn.tn.id.NodeID, pub, sn.tn.ws.ID(), "")
	if err != nil {
		t.Fatalf("the join asked again by the node that used the invite: %v", err)
	}
	if n.ID != sn.tn.id.NodeID || n.Shard < 1 {
		t.Fatalf("joined %+v, want node %s in a shard", n, sn.tn.id.NodeID)
	}
	if _, err := th.h.Join(ctx, sn.secret, sn.tn.id.NodeID, pub, sn.tn.ws.ID(), ""); err != nil {
		t.Fatalf("the same join once more: %v", err)
	}
}

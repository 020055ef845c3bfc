package hub_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/clumsies/clumsies/hub"
	"github.com/clumsies/clumsies/hublink"
)

// TestCluster_InviteUsedAtTwoHubs uses one token at two hubs of a
// cluster. The registry's bucket is replicated there, and a lost
// compare-and-set on it reads otherwise than on a single server: the
// join that loses must still get ErrBadInvite (the API's 403 "join token
// unknown, already used or expired"), not an internal error.
func TestCluster_InviteUsedAtTwoHubs(t *testing.T) {
	hubs := newTestCluster(t)
	ctx := context.Background()

	// Compare-and-sets of the invite at one revision, from the three
	// hubs at once: one wins, the others lose. A replicated stream answers
	// a set that arrives while another set of the key is in flight with
	// its own code (10164, where a set that arrives after reads 10071).
	sn := inviteNode(t, hubs[0], "red")
	rev, err := hubs[1].h.InviteRevision(ctx, sn.secret)
	if err != nil {
		t.Fatalf("read the invite's revision: %v", err)
	}
	const sets = 12
	errs := make([]error, sets)
	var wg sync.WaitGroup
	for i := range sets {
		wg.Go(func() { errs[i] = hubs[i%3].h.UseInviteAt(ctx, sn.secret, rev) })
	}
	wg.Wait()
	oneWins(t, "sets of one invite at one revision from the three hubs", errs)

	// Two joins with one token at two hubs at once: one wins, the other
	// is told the token is used, whichever step it lost at.
	for round := range 3 {
		sn := inviteNode(t, hubs[round%3], "red")
		other, err := hublink.NewIdentity()
		if err != nil {
			t.Fatal(err)
		}
		pub, _ := sn.tn.id.PublicKey()
		otherPub, _ := other.PublicKey()
		errs := make([]error, 2)
		wg.Go(func() {
			_, errs[0] = hubs[round%3].h.Join(ctx, sn.secret, sn.tn.id.NodeID, pub, sn.tn.ws.ID(), "")
		})
		wg.Go(func() {
			_, errs[1] = hubs[(round+1)%3].h.Join(ctx, sn.secret, other.NodeID, otherPub, sn.tn.ws.ID(), "")
		})
		wg.Wait()
		oneWins(t, fmt.Sprintf("round %d: joins with one token at two hubs", round+1), errs)
	}
}

// oneWins checks that exactly one of errs, the outcomes of uses of one
// invite at once, is nil and that every other is ErrBadInvite.
func oneWins(t *testing.T, what string, errs []error) {
	t.Helper()
	won := 0
	for i, err := range errs {
		switch {
		case err == nil:
			won++
		case !errors.Is(err, hub.ErrBadInvite):
			t.Errorf("%s: use %d: %v, want ErrBadInvite", what, i+1, err)
		}
	}
	if won != 1 {
		t.Errorf("%s: %d of %d won, want 1", what, won, len(errs))
	}
}

package hub_test

import (
	"sync"
	"testing"
)

// TestCluster_JoinRightAfterInvite makes invites at one hub of a cluster
// and joins each at once at the next hub, 8 at a time: no join is
// refused. A read of the registry's bucket is served by the nearest
// replica, which may not have stored an invite made a moment before; the
// join then asked the bucket's leader before it calls a token unknown.
func TestCluster_JoinRightAfterInvite(t *testing.T) {
	const nodes, inFlight = 24, 8
	hubs := newTestCluster(t)
	var wg sync.WaitGroup
	sem := make(chan struct{}, inFlight)
	for i := range nodes {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			sn := inviteNodeErr(t, hubs[i%3], "red")
			if err := joinAt(hubs[(i+1)%3], sn); err != nil {
				t.Errorf("join at hub %d right after the invite at hub %d: %v", (i+1)%3+1, i%3+1, err)
			}
		})
	}
	wg.Wait()
}

package hub_test

import (
	"context"
	"testing"
	"time"

	"github.com/clumsies/clumsies/hub"
)

// TestStats_KeptAnswersDroppedOnceTheReadModelsMove checks that the
// answers kept at a checkpoint are dropped as soon as the projector
// commits a newer one, with no read after it: a hub that applies events
// while no one reads its stats holds none of the answers read before.
func TestStats_KeptAnswersDroppedOnceTheReadModelsMove(t *testing.T) {
	th, red := newRedSessions(t, 20)
	ctx := context.Background()
	if _, err := th.h.Stats(hub.Query{Teams: []string{"red"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := th.h.TeamGates(ctx); err != nil {
		t.Fatal(err)
	}
	entries, bytes := th.h.StatsHeld()
	if entries < 3 || bytes == 0 {
		t.Fatalf("after reading the stats and the gates the projector keeps %d answers of %d bytes, want at least 3", entries, bytes)
	}
	applied := th.h.Health(ctx).Applied
	red.sessions("r2", 1, "p-1")
	deadline := time.Now().Add(wait)
	for th.h.Health(ctx).Applied == applied {
		if time.Now().After(deadline) {
			t.Fatalf("the read models did not move past %d in %s", applied, wait)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if entries, bytes := th.h.StatsHeld(); entries != 0 || bytes != 0 {
		t.Errorf("after the read models moved, unread, the projector keeps %d answers of %d bytes, want none", entries, bytes)
	}
}

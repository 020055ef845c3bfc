package hub_test

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/clumsies/clumsies/hub"
)

// TestAggregate_TwoWorkspacesTwoClones joins two workspaces, one of them
// from two clones, and checks that the aggregate holds every event once,
// under its team, workspace and node.
func TestAggregate_TwoWorkspacesTwoClones(t *testing.T) {
	th := newTestHub(t)
	a1 := joinNode(t, th, "red", "")
	a2 := joinNode(t, th, "red", a1.ws.ID())
	b := joinNode(t, th, "blue", "")
	want := map[string]string{}
	for _, tn := range []*testNode{a1, a2, b} {
		for _, id := range tn.appendN(t, 50) {
			want[id] = tn.id.NodeID
		}
	}
	waitAggregate(t, th, len(want))
	got := aggregate(t, th)
	for id, nodeID := range want {
		subj, ok := got[id]
		if !ok {
			t.Fatalf("event %s of %s is missing from the aggregate", id, nodeID)
		}
		if !strings.Contains(subj, "."+nodeID+".") {
			t.Fatalf("event %s of %s is under %s", id, nodeID, subj)
		}
	}
}

// soakSize returns n, or the value of the environment variable name when
// set (make soak-hub runs the full sizes).
func soakSize(name string, n int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return n
}

// checkExactly checks that the aggregate holds exactly the events of want.
func checkExactly(t *testing.T, th *testHub, want map[string]bool) {
	t.Helper()
	waitAggregate(t, th, len(want))
	got := aggregate(t, th)
	for id := range want {
		if _, ok := got[id]; !ok {
			t.Fatalf("event %s is missing from the aggregate", id)
		}
	}
	// The projector counts each of them once.
	waitStats(t, "the hub", th, len(want), wait)
}

// waitStats waits up to within until the hub's stats of the last two
// days count want events, refusing none, and fails the test once they
// count more, refuse one, or the wait is over; name names the hub.
func waitStats(t *testing.T, name string, th *testHub, want int, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		st, err := th.h.Stats(hub.Query{Days: 2})
		if err != nil {
			t.Fatal(err)
		}
		if st.Totals.Events == uint64(want) && st.Refused == 0 {
			return
		}
		if st.Totals.Events > uint64(want) || st.Refused > 0 || time.Now().After(deadline) {
			t.Fatalf("%s counts %d events (%d refused), want %d", name, st.Totals.Events, st.Refused, want)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func addAll(want map[string]bool, ids []string) {
	for _, id := range ids {
		want[id] = true
	}
}

// TestAggregate_HubOffline stops the hub while the workspace goes on
// appending, then starts it again: every event arrives once.
func TestAggregate_HubOffline(t *testing.T) {
	th := newTestHub(t)
	tn := joinNode(t, th, "red", "")
	want := map[string]bool{}
	addAll(want, tn.appendN(t, 20))
	waitAggregate(t, th, len(want))
	th.stop()
	addAll(want, tn.appendN(t, soakSize("HUB_SOAK_OFFLINE", 2000)))
	th.start(t)
	checkExactly(t, th, want)
}

// TestAggregate_WorkspaceOffline closes the workspace, restarts the hub
// meanwhile, and reopens the workspace: nothing is lost or doubled.
func TestAggregate_WorkspaceOffline(t *testing.T) {
	th := newTestHub(t)
	tn := joinNode(t, th, "red", "")
	want := map[string]bool{}
	addAll(want, tn.appendN(t, 20))
	tn.close()
	th.stop()
	th.start(t)
	tn.open(t)
	addAll(want, tn.appendN(t, 20))
	checkExactly(t, th, want)
}

// TestAggregate_FlapLoop restarts the hub and the workspace in turns,
// appending on both sides of every restart, and checks after every round
// that the aggregate holds every event exactly once.
func TestAggregate_FlapLoop(t *testing.T) {
	th := newTestHub(t)
	a := joinNode(t, th, "red", "")
	b := joinNode(t, th, "red", "")
	want := map[string]bool{}
	rounds := soakSize("HUB_SOAK_ROUNDS", 4)
	for round := range rounds {
		addAll(want, a.appendN(t, 30))
		addAll(want, b.appendN(t, 30))
		if round%2 == 0 {
			th.stop()
			addAll(want, a.appendN(t, 30))
			th.start(t)
		} else {
			a.close()
			addAll(want, b.appendN(t, 30))
			a.open(t)
		}
		addAll(want, a.appendN(t, 10))
		checkExactly(t, th, want)
	}
}

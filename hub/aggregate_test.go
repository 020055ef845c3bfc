package hub_test

import (
	"strings"
	"testing"
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

package main_test

import (
	"encoding/json"
	"testing"
	"time"
)

// TestHubCatalog_FirstPush: a workspace linked to a team without a
// catalog gets the team's first push while it stays linked: the hub makes
// the team's (empty) catalog when the node joins, so the workspace's
// mirror follows it from the link-up on instead of waiting for the next
// link-up or its retry backoff. The push comes a while after the link-up
// (the mirror's kick at link-up is long past, its backoff has grown). It
// logs how long the push took to arrive (about 50 ms; seconds when the
// mirror waits out its backoff): speed is not asserted here.
func TestHubCatalog_FirstPush(t *testing.T) {
	hp := newHub(t)
	a := newWorkspace(t)
	hp.join(t, a, "green", "ann")
	_, cl := serve(t, a)
	setup(t, cl, "a-1")
	waitFor(t, "the workspace's link", func() bool {
		var st struct{ Linked bool }
		json.Unmarshal([]byte(mustRun(t, a, "hub", "status", "--json")), &st)
		return st.Linked
	})
	time.Sleep(5 * time.Second) // linked for a while
	pushTree(t, hp, writeTree(t, map[string]string{"rules/team/STYLE.md": teamRule}), "green")
	took := waitFor(t, "the first push in the workspace", func() bool { return discItem(t, cl, "team/STYLE.md") != nil })
	t.Logf("the first push reached the linked workspace after %s", took)
}

package main_test

import (
	"testing"
	"time"
)

// teamHub starts a hub whose team red's catalog holds teamRule at
// team/STYLE.md, and returns it with the rule's id.
func teamHub(tb testing.TB) (*hubProcess, string) {
	tb.Helper()
	hp := newHub(tb)
	tree := writeTree(tb, map[string]string{"rules/team/STYLE.md": teamRule})
	return hp, pushTree(tb, hp, tree, "red").Published[0].ID
}

// TestTeamStats_PathAndRevoke: a workspace's own stats show a rule of the
// team's catalog that its agent referred to with the rule's path and kind,
// and the hub's team nodes answer (never 500) while and after a node of
// the team is revoked.
func TestTeamStats_PathAndRevoke(t *testing.T) {
	hp, id := teamHub(t)
	a, b := newWorkspace(t), newWorkspace(t)
	hp.join(t, a, "red", "ann")
	bNode := hp.join(t, b, "red", "bob")
	serve(t, b)
	_, cl := serve(t, a)
	setup(t, cl, "a-1")
	waitFor(t, "the team rule in the workspace", func() bool { return discItem(t, cl, "team/STYLE.md") != nil })
	refer(t, cl, id, "Errors/1")
	refer(t, cl, id, "Errors/2")
	got := localRules(t, a)["team/STYLE.md"]
	if got.ID != id || got.Kind != "rule" || got.Refs != 2 {
		t.Fatalf("the workspace's stats show the team rule as %+v, want %s at team/STYLE.md, kind rule, 2 refs (all: %+v)", got, id, localRules(t, a))
	}

	token := adminToken(t, hp)
	url := hp.api + "/api/team/nodes"
	if code := httpGet(t, url, token); code != 200 {
		t.Fatalf("GET /api/team/nodes before the revoke: %d", code)
	}
	done := make(chan result, 1)
	go func() { done <- run(t, hp.dir, "hub", "revoke", bNode) }()
	var revoked *result
	var after time.Time
	for i := 0; revoked == nil || time.Since(after) < 5*time.Second; i++ {
		if code := httpGet(t, url, token); code != 200 {
			t.Fatalf("GET /api/team/nodes answered %d around a revoke (request %d, revoked %v)", code, i, revoked != nil)
		}
		select {
		case r := <-done:
			if r.code != 0 {
				t.Fatalf("hub revoke: %+v", r)
			}
			revoked, after = &r, time.Now()
		default:
		}
		time.Sleep(10 * time.Millisecond)
	}
	hp.stop()
	hp.start(t)
	for i := range 20 {
		if code := httpGet(t, url, token); code != 200 {
			t.Fatalf("GET /api/team/nodes answered %d after a restart that followed a revoke (request %d)", code, i)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

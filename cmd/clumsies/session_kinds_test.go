package main_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/clumsies/clumsies/hub/hubwire"
	"github.com/clumsies/clumsies/internal/testbin"
	"github.com/clumsies/clumsies/views/dash"
)

// TestSessionKinds_OneMeaning has a workspace joined to a hub run two
// sessions that set up (one announced by a hook, one not) and one that a
// hook announced and prompted but that never set up. `stats --json`, the
// dashboard's overview and the hub's stats all count 2 sessions set up
// and 1 seen by hooks only.
func TestSessionKinds_OneMeaning(t *testing.T) {
	hp := newHub(t)
	dir := newWorkspace(t)
	hp.join(t, dir, "red", "ann")
	base := serveHTTP(t, dir, "--http", "127.0.0.1:0")
	tok := testbin.HTTPToken(t, dir)

	hookSession(t, dir, "kinds-hooked", func(id, secret string) { mcpSessionWith(t, base, tok, id, secret) })
	mcpSession(t, base, tok, "kinds-mcp")
	hookSession(t, dir, "kinds-hooks-only", func(string, string) {})

	var st struct {
		Events                      uint64
		Sessions, SessionsHooksOnly int
		SessionList                 []struct{ ID, Kind string }
	}
	if err := json.Unmarshal([]byte(mustRun(t, dir, "stats", "--json")), &st); err != nil {
		t.Fatal(err)
	}
	if st.Sessions != 2 || st.SessionsHooksOnly != 1 {
		t.Fatalf("stats --json: %d sessions set up, %d seen by hooks only; want 2 and 1", st.Sessions, st.SessionsHooksOnly)
	}
	kinds := map[string]string{}
	for _, s := range st.SessionList {
		kinds[s.ID] = s.Kind
	}
	if kinds["kinds-hooked"] != "setUp" || kinds["kinds-mcp"] != "setUp" || kinds["kinds-hooks-only"] != "hooksOnly" {
		t.Errorf("stats --json session kinds: %v", kinds)
	}
	if out := mustRun(t, dir, "stats"); !strings.Contains(out, "2 sessions set up (1 more seen by hooks only)") {
		t.Errorf("stats does not name both kinds:\n%s", out)
	}

	var ov dash.Overview
	getJSON(t, base, "/api/overview", tok, &ov)
	if ov.Sessions != st.Sessions || ov.SessionsHooksOnly != st.SessionsHooksOnly {
		t.Errorf("/api/overview: %d sessions set up, %d seen by hooks only; stats says %d and %d",
			ov.Sessions, ov.SessionsHooksOnly, st.Sessions, st.SessionsHooksOnly)
	}

	var hs hubwire.Stats
	deadline := time.Now().Add(2 * time.Minute)
	for {
		if err := json.Unmarshal([]byte(mustRun(t, hp.dir, "hub", "stats", "--json")), &hs); err != nil {
			t.Fatal(err)
		}
		if hs.Totals.Events >= st.Events || time.Now().After(deadline) {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	if hs.Totals.Events != st.Events || hs.Totals.Sessions != uint64(st.Sessions) || hs.Totals.SessionsHooksOnly != uint64(st.SessionsHooksOnly) {
		t.Fatalf("hub stats: %d events, %d sessions set up, %d seen by hooks only; the workspace: %d, %d and %d",
			hs.Totals.Events, hs.Totals.Sessions, hs.Totals.SessionsHooksOnly, st.Events, st.Sessions, st.SessionsHooksOnly)
	}
	if out := mustRun(t, hp.dir, "hub", "stats"); !strings.Contains(out, "2 sessions set up (1 more seen by hooks only)") {
		t.Errorf("hub stats does not name both kinds:\n%s", out)
	}
}

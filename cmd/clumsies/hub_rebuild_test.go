package main_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// TestHub_Rebuild checks `clumsies hub rebuild` between real processes:
// refused while the hub serves, and, once it is stopped, read models
// applied again from the aggregate that give the hub's stats as they were.
func TestHub_Rebuild(t *testing.T) {
	hp := newHub(t)
	a := newWorkspace(t)
	hp.join(t, a, "red", "ann")
	agentSession(t, a, "sess-1", 3)
	var ev struct{ Events uint64 }
	json.Unmarshal([]byte(mustRun(t, a, "stats", "--json")), &ev)
	serve(t, a) // linked while the hub catches up
	deadline := time.Now().Add(time.Minute)
	for hubStats(t, hp).Totals.Events < ev.Events && time.Now().Before(deadline) {
		time.Sleep(200 * time.Millisecond)
	}
	before := mustRun(t, hp.dir, "hub", "stats", "--json")

	if r := run(t, hp.dir, "hub", "rebuild"); r.code == 0 || !strings.Contains(r.stderr, "stop the hub") {
		t.Fatalf("hub rebuild while the hub serves: exit %d, %s", r.code, r.stderr)
	}
	hp.stop()
	if out := mustRun(t, hp.dir, "hub", "rebuild"); !strings.Contains(out, "Rebuilt") {
		t.Fatalf("hub rebuild said %q", out)
	}
	hp.start(t)
	if after := mustRun(t, hp.dir, "hub", "stats", "--json"); after != before {
		t.Fatalf("hub stats after the rebuild:\n%s\nbefore:\n%s", after, before)
	}
}

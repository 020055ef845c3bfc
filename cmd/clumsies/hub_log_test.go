package main_test

import (
	"strings"
	"testing"
	"time"
)

// TestHub_LogOfRevokedClone: short commands run in a revoked clone (each
// dials the hub once) make the hub log one line at info level that names
// the node as refused, not an ERROR naming its nkey for each of them; a
// hub killed and started again with a sourced node says no WARN of
// nats-server ("Sourcing state is outdated"): its notices stay at debug.
func TestHub_LogOfRevokedClone(t *testing.T) {
	hp := newHubAt(t, "info")
	ws := newWorkspace(t)
	node := hp.join(t, ws, "red", "ann")
	mustRun(t, ws, "hub", "status") // the link came up once
	mustRun(t, hp.dir, "hub", "revoke", node)
	for range 4 {
		mustRun(t, ws, "hub", "status")
		mustRun(t, ws, "stats")
	}
	time.Sleep(2 * time.Second) // the redials of the last command reach the hub
	said := hp.said.String()
	if n := strings.Count(said, "node="+node); n != 1 || !strings.Contains(said, "revoked") {
		t.Errorf("the hub's log names the revoked node %s %d times:\n%s\nwant once, as revoked", node, n, said)
	}
	quiet := func(said string) {
		t.Helper()
		for _, line := range strings.Split(said, "\n") {
			if strings.Contains(line, "level=ERROR") || strings.Contains(line, "level=WARN") || strings.Contains(line, "nats-server") {
				t.Errorf("the hub logged %q; want no error, no warning, nothing of nats-server's", line)
			}
		}
	}
	quiet(said)

	// A second node, sourced, and the hub started again.
	other := newWorkspace(t)
	hp.join(t, other, "red", "bob")
	mustRun(t, other, "hub", "status")
	agentSession(t, other, "log-1", 1)
	hp.cmd.Process.Kill() // as a crash would
	hp.cmd.Wait()
	hp.cmd = nil
	hp.start(t)
	mustRun(t, other, "hub", "status")
	agentSession(t, other, "log-2", 1)
	time.Sleep(2 * time.Second)
	quiet(hp.said.String())
}

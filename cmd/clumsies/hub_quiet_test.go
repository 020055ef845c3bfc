package main_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestHub_ServeSaysOnlyOurs: at the default log level `hub serve` prints
// what clumsies says, not nats-server's banner, and the configuration it
// generates draws no warning from nats-server (no plaintext password).
func TestHub_ServeSaysOnlyOurs(t *testing.T) {
	hp := newHubAt(t, "info")
	ws := newWorkspace(t)
	hp.join(t, ws, "red", "ann")
	mustRun(t, hp.dir, "hub", "nodes")
	said := hp.said.String()
	for _, line := range strings.Split(strings.TrimSpace(said), "\n") {
		if strings.Contains(line, "nats-server") || strings.Contains(line, "Plaintext") || strings.Contains(line, "level=WARN") {
			t.Errorf("hub serve said %q; want only clumsies' own lines at info level:\n%s", line, said)
		}
	}
}

// TestHub_DownSaidOnceInOurWords: with the hub of a joined workspace down,
// the commands that do not need the hub print nothing about it, and serve
// says it in one line of its own, none of nats-server's.
func TestHub_DownSaidOnceInOurWords(t *testing.T) {
	hp := newHub(t)
	ws := newWorkspace(t)
	hp.join(t, ws, "red", "ann")
	mustRun(t, ws, "hub", "status") // the link came up once
	hp.stop()

	for _, args := range [][]string{{"stats"}, {"publish"}, {"events"}, {"drafts", "list"}, {"verify"}, {"hub", "status"}} {
		r := run(t, ws, args...)
		if r.code != 0 {
			t.Fatalf("clumsies %s with the hub down: exit %d, stderr %q", strings.Join(args, " "), r.code, r.stderr)
		}
		if strings.Contains(r.stderr, "nats-server") || strings.Contains(r.stderr, "leafnode") || strings.Contains(r.stderr, "cannot be reached") {
			t.Errorf("clumsies %s with the hub down said on stderr:\n%s\nwant nothing of the hub", strings.Join(args, " "), r.stderr)
		}
	}

	cmd, cl, stderr := serveStderr(t, ws)
	setup(t, cl, "hub-down")
	deadline := time.Now().Add(time.Minute)
	for !strings.Contains(stderr.String(), "cannot be reached") && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	call(t, cl, "agentreport", map[string]any{"summary": "the hub is down"})
	cl.Close()
	cmd.Wait()
	said := stderr.String()
	if n := strings.Count(said, "cannot be reached"); n != 1 || strings.Contains(said, "nats-server") || strings.Contains(said, "leafnode") {
		t.Fatalf("serve with the hub down said:\n%s\nwant one line that the hub cannot be reached, and none of nats-server's", said)
	}
}

// TestHub_StatusSaysWhatToDo: `hub status` with the link down says what
// brings it up, and after a revoke says the node is revoked and how to
// link again, not that the hub catches up.
func TestHub_StatusSaysWhatToDo(t *testing.T) {
	hp := newHub(t)
	ws := newWorkspace(t)
	mustRun(t, ws, "publish")
	node := hp.join(t, ws, "red", "ann")

	// A leaf URL where nothing listens: the hub's API answers, the link
	// stays down, as it does while no process owns the workspace.
	config := filepath.Join(ws, ".clumsies", "config.toml")
	b, err := os.ReadFile(config)
	if err != nil {
		t.Fatal(err)
	}
	leafURL := regexp.MustCompile(`(?m)^url = ".*"$`)
	if err := os.WriteFile(config, leafURL.ReplaceAll(b, []byte(`url = "nats-leaf://`+freeAddr(t)+`"`)), 0o644); err != nil {
		t.Fatal(err)
	}
	out := mustRun(t, ws, "hub", "status")
	if !strings.Contains(out, "Link: down") || !strings.Contains(out, "clumsies serve") {
		t.Errorf("hub status with the link down:\n%s\nwant it down, and what brings it up", out)
	}
	if err := os.WriteFile(config, b, 0o644); err != nil {
		t.Fatal(err)
	}

	mustRun(t, hp.dir, "hub", "revoke", node)
	r := run(t, ws, "hub", "status")
	if r.code != 0 || !strings.Contains(r.stdout, "revoked") || strings.Contains(r.stdout, "catches up") || !strings.Contains(r.stdout, "hub join") {
		t.Errorf("hub status after a revoke: exit %d\n%s\nwant it revoked and how to join again, not that the hub catches up", r.code, r.stdout)
	}
	if strings.Contains(r.stderr, "nats-server") || strings.Contains(r.stderr, "Leafnode") {
		t.Errorf("hub status after a revoke said on stderr:\n%s\nwant none of nats-server's lines (the hub refusing the link)", r.stderr)
	}

	// serve says the hub refuses the link, once, in its own words.
	cmd, cl, stderr := serveStderr(t, ws)
	setup(t, cl, "revoked")
	deadline := time.Now().Add(time.Minute)
	for !strings.Contains(stderr.String(), "refuses this node's link") && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	cl.Close()
	cmd.Wait()
	if said := stderr.String(); strings.Count(said, "refuses this node's link") != 1 || strings.Contains(said, "nats-server") {
		t.Errorf("serve of a revoked node said:\n%s\nwant one line that the hub refuses the link, and none of nats-server's", said)
	}
}

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

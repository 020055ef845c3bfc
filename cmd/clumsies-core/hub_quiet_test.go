package main_test

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/clumsies/clumsies/mcp"
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

	var stderr syncWriter
	cmd := exec.Command(binary, "serve", "--workspace", ws)
	cmd.Stderr = &stderr
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cl, err := mcp.ConnectCommand(ctx, cmd)
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
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

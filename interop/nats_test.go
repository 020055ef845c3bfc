package interop_test

import (
	"context"
	"encoding/json"
	"net"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/mcp"
)

const natsToken = "interop-nats-token"

// requireNATSFlags fails tb unless `clumsies serve` has the flags that open
// the NATS listener.
func requireNATSFlags(tb testing.TB) {
	tb.Helper()
	r := run(tb, ".", binary, "serve", "-h")
	help := r.stdout + r.stderr
	for _, flag := range []string{"-nats-listen", "-nats-token"} {
		if !strings.Contains(help, flag) {
			tb.Fatalf("clumsies serve has no -%s flag, which this test needs to open the workspace's NATS listener.\nclumsies serve -h:\n%s", flag, help)
		}
	}
}

// freeAddr returns a loopback address with a port that was free a moment ago.
func freeAddr(tb testing.TB) string {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// mustCall calls a tool that must succeed.
func mustCall(tb testing.TB, c *mcp.Client, tool string, args any) map[string]any {
	tb.Helper()
	res, isErr, err := c.Call(context.Background(), tool, args)
	if err != nil || isErr {
		tb.Fatalf("%s: got %v, %v; want success", tool, res, err)
	}
	return res
}

// TestNATS_Subscribe reads a session's events from the workspace stream
// with the nats npm client while a Go MCP client drives `clumsies serve`
// over stdio.
func TestNATS_Subscribe(t *testing.T) {
	node := requireNode(t)
	requireNATSFlags(t)
	dir := newWorkspace(t)
	addr := freeAddr(t)
	const session = "nats-interop"

	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	serve := exec.Command(binary, "serve", "--workspace", dir, "--nats-listen", addr, "--nats-token", natsToken)
	serveErr := &lockedBuffer{}
	serve.Stderr = serveErr
	client, err := mcp.ConnectCommand(ctx, serve)
	if err != nil {
		t.Fatalf("start clumsies serve: %v\nstderr:\n%s", err, serveErr)
	}
	closed := false
	defer func() {
		if !closed {
			client.Close()
		}
	}()

	setup := mustCall(t, client, "memsetup", map[string]any{"session_id": session, "knownHashes": map[string]any{"META_PROMPT.md": ""}})
	ws, _ := setup["workspaceId"].(string)
	if !events.ValidWorkspaceID(ws) {
		t.Fatalf("memsetup: got workspaceId %q, want a workspace id", ws)
	}
	disc := mustCall(t, client, "memdisc", map[string]any{"kind": "workflow"})
	items, _ := disc["items"].([]any)
	if len(items) == 0 {
		t.Fatalf("memdisc: got %v, want the starter workflow", disc)
	}
	workflow, _ := items[0].(map[string]any)["id"].(string)

	// The subscriber starts mid-session: it replays what is stored and
	// follows what comes next.
	const want = 5
	subscriber := func(token string) *exec.Cmd {
		return exec.CommandContext(ctx, node, "nats_subscribe.mjs", "--server", "nats://"+addr, "--token", token,
			"--workspace", ws, "--session", session, "--count", strconv.Itoa(want), "--timeout", "60000")
	}
	sub := subscriber(natsToken)
	subOut, subErr := &lockedBuffer{}, &lockedBuffer{}
	sub.Stdout, sub.Stderr = subOut, subErr
	if err := sub.Start(); err != nil {
		t.Fatalf("start node nats_subscribe.mjs: %v", err)
	}

	load := mustCall(t, client, "memload", map[string]any{"ids": []string{workflow}, "knownHashes": map[string]any{workflow: ""}})
	loaded, _ := load["items"].([]any)
	constraints, _ := loaded[0].(map[string]any)["constraints"].([]any)
	if len(constraints) == 0 {
		t.Fatalf("memload: got %v, want constraints", load)
	}
	constraint, _ := constraints[0].(map[string]any)["id"].(string)
	mustCall(t, client, "memref", map[string]any{"refs": []any{map[string]any{"ruleId": workflow, "constraintId": constraint}}})
	mustCall(t, client, "agentreport", map[string]any{"summary": "NATS interop session done."})

	if err := sub.Wait(); err != nil {
		t.Fatalf("node nats_subscribe.mjs: %v\nstdout:\n%s\nstderr:\n%s\nclumsies serve stderr:\n%s", err, subOut, subErr, serveErr)
	}
	var got []events.Event
	for _, line := range lines(subOut.String()) {
		var ev events.Event
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("nats_subscribe.mjs printed %q, want JSON envelopes: %v", line, err)
		}
		got = append(got, ev)
	}
	if len(got) != want {
		t.Fatalf("got %d events from NATS, want %d:\n%s", len(got), want, subOut)
	}
	wantCalls := []string{"attest.setup:ok", "attest.discover:ok", "attest.load:ok", "attest.refer:ok", "attest.agent_report:ok"}
	if g := callsOf(got); strings.Join(g, " ") != strings.Join(wantCalls, " ") {
		t.Fatalf("events from NATS:\n got %v\nwant %v", g, wantCalls)
	}
	for i, ev := range got {
		if ev.SessionID != session || ev.WorkspaceID != ws {
			t.Errorf("event %d: got session %q workspace %q, want %s in %s", i, ev.SessionID, ev.WorkspaceID, session, ws)
		}
		if i > 0 && ev.Seq <= got[i-1].Seq {
			t.Errorf("event %d: got seq %d after %d, want stream order", i, ev.Seq, got[i-1].Seq)
		}
	}

	t.Run("WrongToken", func(t *testing.T) {
		bad := subscriber("not-the-token")
		var out, errb lockedBuffer
		bad.Stdout, bad.Stderr = &out, &errb
		err := bad.Run()
		if err == nil || !strings.Contains(strings.ToLower(errb.String()), "authorization") {
			t.Fatalf("subscriber with a wrong token: got %v, stderr %q; want an authorization failure", err, errb.String())
		}
	})

	if err := client.Close(); err != nil {
		t.Fatalf("close the MCP client: %v", err)
	}
	closed = true
	if !serve.ProcessState.Success() {
		t.Fatalf("clumsies serve exited with %v, want 0 after stdin closed\nstderr:\n%s", serve.ProcessState, serveErr)
	}
	// The ledger holds the very events NATS delivered.
	stored := ledger(t, dir, session)
	if len(stored) != len(got) {
		t.Fatalf("got %d events of %s in the ledger, want %d", len(stored), session, len(got))
	}
	for i := range stored {
		if stored[i].ID != got[i].ID || stored[i].Seq != got[i].Seq {
			t.Errorf("event %d: ledger has %s at %d, NATS delivered %s at %d", i, stored[i].ID, stored[i].Seq, got[i].ID, got[i].Seq)
		}
	}
}

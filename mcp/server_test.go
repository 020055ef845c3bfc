package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/clumsies/clumsies/events"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestServeStdio(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.seed()
	serverIn, clientOut := io.Pipe()
	clientIn, serverOut := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- e.srv.ServeStdio(context.Background(), serverIn, serverOut) }()

	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "stdio-test"}, nil).
		Connect(ctx, &mcp.IOTransport{Reader: clientIn, Writer: clientOut}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	if got := cs.InitializeResult().Instructions; got != metaPrompt {
		t.Fatalf("got instructions %q, want the META_PROMPT", got)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "memdisc"})
	if err != nil || !res.IsError {
		t.Fatalf("memdisc before memsetup: got %+v, %v; want session_required", res, err)
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "memsetup", Arguments: map[string]any{
		"session_id": "stdio-1", "knownHashes": map[string]any{"META_PROMPT.md": ""}}})
	if err != nil || res.IsError {
		t.Fatalf("memsetup: got %+v, %v", res, err)
	}
	if err := cs.Close(); err != nil { // closes the client's stdout, the server's stdin
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("ServeStdio: got %v, want nil after the client closed stdin", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("ServeStdio did not return after the client closed stdin")
	}
	if got := len(e.toolEvents()); got != 2 {
		t.Fatalf("got %d events, want 2", got)
	}
}

func TestServeStdio_ContextEnds(t *testing.T) {
	e := newEnv(t, envOptions{})
	in, w := io.Pipe()
	defer w.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- e.srv.ServeStdio(ctx, in, io.Discard) }()
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("got %v, want nil: ending ctx is a clean shutdown", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("ServeStdio did not return after ctx ended")
	}
}

func TestHTTPHandler(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.seed()
	hs := httptest.NewServer(e.srv.HTTPHandler())
	t.Cleanup(hs.Close) // after the clients close: Close waits for their streams
	ctx := context.Background()
	connect := func() *mcp.ClientSession {
		// Protocol 2025-11-25, the last with sessions (2026-07-28:
		// TestHTTPHandler_Stateless).
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "http-test"}, nil).
			Connect(ctx, &mcp.StreamableClientTransport{Endpoint: hs.URL}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = cs.Close() })
		return cs
	}
	a, b := connect(), connect()
	if got := a.InitializeResult().Instructions; got != metaPrompt {
		t.Fatalf("got instructions %q, want the META_PROMPT", got)
	}
	for _, c := range []struct {
		cs      *mcp.ClientSession
		session string
	}{{a, "http-a"}, {b, "http-b"}} {
		res, err := c.cs.CallTool(ctx, &mcp.CallToolParams{Name: "memsetup", Arguments: map[string]any{
			"session_id": c.session, "knownHashes": map[string]any{"META_PROMPT.md": ""}}})
		if err != nil || res.IsError {
			t.Fatalf("memsetup %s: got %+v, %v", c.session, res, err)
		}
	}
	res, err := a.CallTool(ctx, &mcp.CallToolParams{Name: "agentreport", Arguments: map[string]any{"summary": "done"}})
	if err != nil || res.IsError {
		t.Fatalf("agentreport: got %+v, %v", res, err)
	}
	evs := e.toolEvents()
	if got := evs[len(evs)-1].SessionID; got != "http-a" {
		t.Fatalf("got session %q on a's event, want http-a: each HTTP session binds its own", got)
	}
}

// TestHTTPHandler_Stateless checks that protocol 2026-07-28 is served
// over HTTP (the SDK's client asks for it first): the client connects in
// it, memsetup sets a session up, and as no request is bound to it, the
// other tools run in it when they name it with session_id and answer
// session_required, saying so, when they do not.
func TestHTTPHandler_Stateless(t *testing.T) {
	e := newEnv(t, envOptions{})
	e.seed()
	cs, call := e.statelessClient()
	if got := cs.InitializeResult().Instructions; got != metaPrompt {
		t.Fatalf("got instructions %q, want the META_PROMPT", got)
	}
	set := call("memsetup", map[string]any{"session_id": "modern-1", "knownHashes": map[string]any{"META_PROMPT.md": ""}})
	if set["sessionId"] != "modern-1" || set["sessionSecret"] == nil {
		t.Fatalf("memsetup: %v, want the session and the secret it issued", set)
	}
	if res := call("memdisc", map[string]any{}); res["code"] != "session_required" || !strings.Contains(fmt.Sprint(res["error"]), "session_id") {
		t.Fatalf("memdisc without session_id: %v, want session_required saying to pass session_id", res)
	}
	if res := call("memdisc", map[string]any{"session_id": "never-set-up"}); res["code"] != "session_required" {
		t.Fatalf("memdisc with a session no memsetup set up: %v, want session_required", res)
	}
	if res := call("memdisc", map[string]any{"session_id": "modern-1"}); res["code"] != "session_conflict" || !strings.Contains(fmt.Sprint(res["error"]), "session_secret") {
		t.Fatalf("memdisc with session_id and no session_secret: %v, want session_conflict asking for session_secret", res)
	}
	if res := call("memdisc", map[string]any{"session_id": "modern-1", "session_secret": set["sessionSecret"]}); res["items"] == nil {
		t.Fatalf("memdisc with session_id and session_secret: %v, want the items", res)
	}
	evs := e.toolEvents()
	if last := evs[len(evs)-1]; last.SessionID != "modern-1" || last.Outcome != "ok" {
		t.Fatalf("the last event: session %q, outcome %s; want modern-1, ok", last.SessionID, last.Outcome)
	}
}

func TestConnectCommand(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), serveEnv+"=1")
	ctx := context.Background()
	c, err := ConnectCommand(ctx, cmd)
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Instructions(); got != protocolSummary {
		t.Fatalf("got instructions %q, want the protocol summary", got)
	}
	setup(t, c, "child-1")
	mustFail(t, c, "memload", map[string]any{"ids": []string{"p-1"}, "knownHashes": map[string]any{"p-1": ""}}, events.CodeUnknownRule)
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if !cmd.ProcessState.Success() {
		t.Fatalf("the server exited with %v, want 0 after stdin closed", cmd.ProcessState)
	}
}

// statelessClient connects a client to the server over HTTP at protocol
// 2026-07-28 (the SDK's client asks for it first), where each request is
// a connection of its own, and returns it with a function that calls a
// tool and returns its structured answer.
func (e *env) statelessClient() (*mcp.ClientSession, func(tool string, args map[string]any) map[string]any) {
	t := e.tb
	t.Helper()
	hs := httptest.NewServer(e.srv.HTTPHandler())
	t.Cleanup(hs.Close)
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "http-modern"}, nil).
		Connect(ctx, &mcp.StreamableClientTransport{Endpoint: hs.URL}, nil)
	if err != nil {
		t.Fatalf("connect at protocol 2026-07-28 over HTTP: %v", err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	if v := cs.InitializeResult().ProtocolVersion; v != "2026-07-28" {
		t.Fatalf("negotiated protocol %q over HTTP, want 2026-07-28", v)
	}
	return cs, func(tool string, args map[string]any) map[string]any {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", tool, err)
		}
		b, _ := json.Marshal(res.StructuredContent)
		var m map[string]any
		json.Unmarshal(b, &m)
		return m
	}
}

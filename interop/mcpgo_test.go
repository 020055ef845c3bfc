package interop_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"maps"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/clumsies/clumsies/internal/testbin"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// The Go library mcp-go (github.com/mark3labs/mcp-go) as its users run it:
// default client settings, which probe server/discover first and speak
// protocol 2026-07-28 where the server can.

func TestMCPSession_MCPGoStdio(t *testing.T) {
	dir := newWorkspace(t)
	c, err := client.NewStdioMCPClient(binary, nil, "serve", "--workspace", dir)
	if err != nil {
		t.Fatalf("start clumsies serve through mcp-go: %v", err)
	}
	mcpgoSession(t, c, "mcpgo-stdio")
	c.Close()
	checkMCPGoLedger(t, dir, "mcpgo-stdio")
}

func TestMCPSession_MCPGoHTTP(t *testing.T) {
	dir := newWorkspace(t)
	base, stop := serveHTTP(t, dir)
	defer stop()
	c, err := client.NewStreamableHttpClient(base+"/mcp",
		transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + testbin.HTTPToken(t, dir)}))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	if err := c.Start(ctx); err != nil {
		t.Fatalf("start the mcp-go HTTP client: %v", err)
	}
	mcpgoSession(t, c, "mcpgo-http")
	c.Close()
	stop()
	checkMCPGoLedger(t, dir, "mcpgo-http")
}

// mcpgoSession plays an agent's session through c: every tool the
// protocol's cycle uses, a delta load whose content is null, and a
// structured error.
func mcpgoSession(t *testing.T, c *client.Client, session string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	init, err := c.Initialize(ctx, mcp.InitializeRequest{Params: mcp.InitializeParams{
		ClientInfo: mcp.Implementation{Name: "mcp-go-interop", Version: "1"},
	}})
	if err != nil {
		t.Fatalf("initialize: %v", err)
	}
	if init.ServerInfo.Name != "clumsies" || !strings.Contains(init.Instructions, "memsetup") {
		t.Errorf("initialize: got server %q and instructions %q, want clumsies and a frame naming memsetup", init.ServerInfo.Name, init.Instructions)
	}
	t.Logf("negotiated protocol %s", c.ProtocolVersion())

	tools, err := c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		t.Fatalf("tools/list after negotiating %s: %v", c.ProtocolVersion(), err)
	}
	var names []string
	for _, tl := range tools.Tools {
		names = append(names, tl.Name)
	}
	slices.Sort(names)
	if got := strings.Join(names, " "); got != "agentrejected agentreport artifact memdisc memload memref memsetup" {
		t.Fatalf("tools/list: got %s, want the seven tools", got)
	}

	// Each call but memsetup names its session, and presents the secret
	// memsetup issued, as an agent does on a connection that keeps none
	// (HTTP at 2026-07-28); over stdio the connection's session is the
	// one used.
	var secret string
	call := func(name string, args map[string]any) (map[string]any, bool) {
		t.Helper()
		if _, ok := args["session_id"]; !ok && name != "memsetup" {
			args = maps.Clone(args)
			if args == nil {
				args = map[string]any{}
			}
			args["session_id"] = session
			if secret != "" {
				args["session_secret"] = secret
			}
		}
		res, err := c.CallTool(ctx, mcp.CallToolRequest{Params: mcp.CallToolParams{Name: name, Arguments: args}})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		b, err := json.Marshal(res.StructuredContent)
		if err != nil {
			t.Fatalf("%s: structuredContent: %v", name, err)
		}
		var out map[string]any
		if err := json.Unmarshal(b, &out); err != nil || out == nil {
			t.Fatalf("%s: structuredContent %s is not an object", name, b)
		}
		return out, res.IsError
	}
	mustCall := func(name string, args map[string]any) map[string]any {
		t.Helper()
		out, isErr := call(name, args)
		if isErr {
			t.Fatalf("%s: got error %v", name, out)
		}
		return out
	}

	setup := mustCall("memsetup", map[string]any{"session_id": session, "knownHashes": map[string]any{"META_PROMPT.md": ""}})
	if secret, _ = setup["sessionSecret"].(string); secret == "" {
		t.Fatalf("memsetup: no sessionSecret in %v", setup)
	}
	disc := mustCall("memdisc", map[string]any{"kind": "workflow"})
	items, _ := disc["items"].([]any)
	if len(items) != 1 {
		t.Fatalf("memdisc kind=workflow: got %v, want one workflow", disc)
	}
	id, _ := items[0].(map[string]any)["id"].(string)

	first := mustCall("memload", map[string]any{"ids": []string{id}, "knownHashes": map[string]any{id: ""}})
	item := first["items"].([]any)[0].(map[string]any)
	hash, _ := item["hash"].(string)
	if content, _ := item["content"].(string); content == "" || item["changed"] != true {
		t.Fatalf("memload: got %v, want the content", item)
	}
	again := mustCall("memload", map[string]any{"ids": []string{id}, "knownHashes": map[string]any{id: hash}})
	item = again["items"].([]any)[0].(map[string]any)
	if content, present := item["content"]; !present || content != nil || item["changed"] != false {
		t.Fatalf("delta memload: got %v, want changed false and content null", item)
	}

	bad, isErr := call("memref", map[string]any{"refs": []any{map[string]any{"ruleId": id, "constraintId": "No such constraint"}}})
	if !isErr || bad["code"] != "unknown_constraint" || bad["retryable"] != true {
		t.Fatalf("memref with a wrong constraint: got error=%v %v, want unknown_constraint", isErr, bad)
	}
	mustCall("agentreport", map[string]any{"summary": "mcp-go interop session"})
}

func checkMCPGoLedger(t *testing.T, dir, session string) {
	t.Helper()
	got := callsOf(ledger(t, dir, session))
	want := []string{"attest.setup:ok", "attest.discover:ok", "attest.load:ok", "attest.load:ok",
		"attest.refer:error:unknown_constraint", "attest.agent_report:ok"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("events of session %s:\n got %v\nwant %v", session, got, want)
	}
}

var servingRE = regexp.MustCompile(`serving MCP at http://([^/\s]+)/mcp`)

// serveHTTP starts `clumsies serve --http` on a free loopback port and
// returns its base URL and a function that interrupts it and waits for it
// to exit (so that the ledger is free); it runs at the end of the test
// too.
func serveHTTP(tb testing.TB, dir string) (string, func()) {
	tb.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, binary, "serve", "--workspace", dir, "--http", "127.0.0.1:0")
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	stderr, err := cmd.StderrPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	var once sync.Once
	stop := func() {
		once.Do(func() {
			cancel()
			cmd.Wait()
		})
	}
	tb.Cleanup(stop)
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		if m := servingRE.FindStringSubmatch(sc.Text()); m != nil {
			go io.Copy(io.Discard, stderr)
			return "http://" + m[1], stop
		}
	}
	tb.Fatalf("serve --http never said where it serves")
	return "", stop
}

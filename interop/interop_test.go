// Package interop_test runs official clients written by others against the
// built clumsies binary: the MCP TypeScript SDK client over stdio and
// Streamable HTTP (mcp_session.mjs), the Go library mcp-go over stdio and Streamable HTTP
// with its default settings (mcpgo_test.go), and the nats npm client
// reading the workspace stream (nats_subscribe.mjs). They need Node.js and the npm packages of
// package.json, which `make interop-deps` installs into node_modules
// (`make test` does it first); without them the tests fail, they never
// skip.
package interop_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/internal/testbin"
)

// binary is the clumsies binary built once for the interop tests.
var binary string

// timeout bounds every run of the binary or of node.
const timeout = 2 * time.Minute

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "clumsies-interop-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "clumsies")
	if err := testbin.Build(binary, "../cmd/clumsies"); err != nil {
		fmt.Fprintln(os.Stderr, "build clumsies:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// requireNode returns the path of node, failing tb (never skipping) when
// node or the npm packages are missing.
func requireNode(tb testing.TB) string {
	tb.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		tb.Fatalf("node is not on PATH (%v): the interop tests need Node.js 18 or later; install it, then run `make interop-deps`", err)
	}
	out, err := exec.Command(node, "--version").Output()
	if err != nil {
		tb.Fatalf("%s --version: %v", node, err)
	}
	version := strings.TrimSpace(string(out))
	major, _ := strconv.Atoi(strings.SplitN(strings.TrimPrefix(version, "v"), ".", 2)[0])
	if major < 18 {
		tb.Fatalf("node %s is too old: the interop tests need Node.js 18 or later", version)
	}
	for _, pkg := range []string{"@modelcontextprotocol/sdk", "nats"} {
		if _, err := os.Stat(filepath.Join("node_modules", filepath.FromSlash(pkg), "package.json")); err != nil {
			tb.Fatalf("interop/node_modules has no %s (%v): run `make interop-deps` to install the npm packages of interop/package.json", pkg, err)
		}
	}
	return node
}

// result is one finished run of a program.
type result struct {
	stdout, stderr string
	code           int
}

// run runs a program to completion with a deadline, in dir.
func run(tb testing.TB, dir, name string, args ...string) result {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	out, errs, code, err := testbin.Run(cmd)
	if err != nil {
		tb.Fatalf("run %s %v: %v", name, args, err)
	}
	return result{out, errs, code}
}

// mustRun runs the binary and fails tb unless it exits 0.
func mustRun(tb testing.TB, dir string, args ...string) string {
	tb.Helper()
	r := run(tb, dir, binary, args...)
	if r.code != 0 {
		tb.Fatalf("clumsies %s: exit %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), r.code, r.stdout, r.stderr)
	}
	return r.stdout
}

// newWorkspace runs clumsies init in a fresh folder and returns it.
func newWorkspace(tb testing.TB) string {
	tb.Helper()
	dir := tb.TempDir()
	mustRun(tb, dir, "init")
	return dir
}

// ledger returns the events of session in the workspace's ledger, read
// with `clumsies events --json`.
func ledger(tb testing.TB, dir, session string) []events.Event {
	tb.Helper()
	out := mustRun(tb, dir, "events", "--json", "--workspace", dir)
	var evs []events.Event
	for _, line := range lines(out) {
		var ev events.Event
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			tb.Fatalf("clumsies events --json: line %q: %v", line, err)
		}
		if ev.SessionID == session {
			evs = append(evs, ev)
		}
	}
	return evs
}

func lines(s string) []string {
	var out []string
	sc := bufio.NewScanner(strings.NewReader(s))
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); line != "" {
			out = append(out, line)
		}
	}
	return out
}

// call is one tool call as an event records it.
type call struct {
	typ       events.Type
	outcome   events.Outcome
	errorCode string
}

func (c call) String() string {
	if c.errorCode != "" {
		return fmt.Sprintf("%s:%s:%s", c.typ, c.outcome, c.errorCode)
	}
	return fmt.Sprintf("%s:%s", c.typ, c.outcome)
}

func callsOf(evs []events.Event) []string {
	out := make([]string, len(evs))
	for i, ev := range evs {
		out[i] = call{ev.Type, ev.Outcome, ev.ErrorCode}.String()
	}
	return out
}

// lockedBuffer is a bytes.Buffer safe for a writer and a reader at once.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// TestMCPSession_TypeScriptSDK runs a session with the official MCP
// TypeScript SDK client against `clumsies serve` over stdio.
func TestMCPSession_TypeScriptSDK(t *testing.T) {
	node := requireNode(t)
	dir := newWorkspace(t)
	tsSession(t, dir, run(t, ".", node, "mcp_session.mjs", binary, dir))
}

// TestMCPSession_TypeScriptSDKHTTP runs the same session over Streamable
// HTTP against `clumsies serve --http`.
func TestMCPSession_TypeScriptSDKHTTP(t *testing.T) {
	node := requireNode(t)
	dir := newWorkspace(t)
	base, stop := serveHTTP(t, dir)
	t.Setenv("CLUMSIES_TOKEN", testbin.HTTPToken(t, dir)) // for mcp_session.mjs
	r := run(t, ".", node, "mcp_session.mjs", "--http", base+"/mcp")
	stop()
	tsSession(t, dir, r)
}

// tsSession checks what mcp_session.mjs printed and the session's events
// in the ledger (read once the server has exited).
func tsSession(t *testing.T, dir string, r result) {
	t.Helper()
	if r.code != 0 {
		t.Fatalf("node mcp_session.mjs: exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}

	type step struct {
		Step  string   `json:"step"`
		OK    bool     `json:"ok"`
		Tools []string `json:"tools"`
		Code  string   `json:"code"`
		ID    string   `json:"id"`
	}
	var steps []step
	var names []string
	for _, line := range lines(r.stdout) {
		var s step
		if err := json.Unmarshal([]byte(line), &s); err != nil {
			t.Fatalf("mcp_session.mjs printed %q, want JSON lines: %v", line, err)
		}
		if !s.OK {
			t.Fatalf("mcp_session.mjs step %s failed: %s", s.Step, line)
		}
		steps = append(steps, s)
		names = append(names, s.Step)
	}
	want := []string{"initialize", "tools/list", "memsetup", "memdisc", "memload", "memref", "memref_unknown_constraint", "artifact", "agentreport"}
	if strings.Join(names, " ") != strings.Join(want, " ") {
		t.Fatalf("got steps %v, want %v\nstderr:\n%s", names, want, r.stderr)
	}
	if got := strings.Join(steps[1].Tools, " "); got != "agentrejected agentreport artifact memdisc memload memref memsetup" {
		t.Errorf("tools/list: got %s, want the seven tools", got)
	}
	if steps[6].Code != "unknown_constraint" {
		t.Errorf("memref with a wrong constraint: got code %q, want unknown_constraint", steps[6].Code)
	}

	got := callsOf(ledger(t, dir, "ts-interop"))
	wantCalls := []string{
		"attest.setup:ok", "attest.discover:ok", "attest.load:ok", "attest.refer:ok",
		"attest.refer:error:unknown_constraint", "attest.draft.create:ok", "attest.agent_report:ok",
	}
	if strings.Join(got, " ") != strings.Join(wantCalls, " ") {
		t.Fatalf("events of session ts-interop:\n got %v\nwant %v", got, wantCalls)
	}
}

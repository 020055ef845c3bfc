package main_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/mcp"
	"github.com/clumsies/clumsies/node"
	"github.com/clumsies/clumsies/workspace"
)

const (
	initialize  = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{"roots":{"listChanged":true}},"clientInfo":{"name":"t","version":"1"}}}`
	initialized = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
	discover    = `{"jsonrpc":"2.0","id":"d","method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}}}`
	// resumedNote is what the core logs at debug level when it serves a
	// session the front began.
	resumedNote = "resuming the session the front began"
)

// The front links nothing of the server: that is what makes it start as
// fast as a bare MCP server.
func TestFront_LinksNoServerPackages(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, banned := range []string{"github.com/nats-io/", "github.com/cockroachdb/", "github.com/modelcontextprotocol/", "github.com/prometheus/", "github.com/clumsies/clumsies/node", "github.com/clumsies/clumsies/projections"} {
			if strings.HasPrefix(dep, banned) || dep == "github.com/clumsies/clumsies/mcp" {
				t.Errorf("the front links %s", dep)
			}
		}
	}
}

// Whatever the workspace and the flags, the front's answer to the opening
// request is the core's (the core, resumed, compares it too and logs any
// difference), and the core knows it began nothing.
func TestFront_AnswersAsTheCore(t *testing.T) {
	plain := newWorkspace(t)
	odd := newWorkspace(t)
	if err := os.WriteFile(filepath.Join(odd, ".clumsies", content.MetaPromptPath), []byte("# Rules <b> & \"quotes\"\r\n\n日本語 \u2028 tab\t\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	none := newWorkspace(t)
	if err := os.Remove(filepath.Join(none, ".clumsies", content.MetaPromptPath)); err != nil {
		t.Fatal(err)
	}
	readOnly := newWorkspace(t)
	cfg := filepath.Join(readOnly, ".clumsies", "config.toml")
	b, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, []byte(strings.Replace(string(b), "read_only = false", "read_only = true", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "read_only = false") {
		t.Fatalf("config.toml has no read_only = false to change:\n%s", b)
	}
	older := strings.Replace(initialize, "2025-06-18", "2024-11-05", 1)
	for _, tc := range []struct {
		name  string
		args  []string
		first string
	}{
		{"initialize", []string{"serve", "--workspace", plain}, initialize},
		{"an older protocol", []string{"serve", "--workspace", plain}, older},
		{"server/discover", []string{"serve", "--workspace", plain}, discover},
		{"a META_PROMPT to escape", []string{"serve", "--workspace=" + odd}, initialize},
		{"no META_PROMPT", []string{"serve", "-workspace", none}, discover},
		{"--read-only", []string{"serve", "--read-only", "--workspace", plain, "--sync", "interval"}, initialize},
		{"read_only in config.toml", []string{"serve", "--workspace", readOnly}, discover},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append(tc.args, "--log-level", "debug")
			want := firstAnswer(t, core, tc.first, args...)
			f := start(t, front, args...)
			f.send(tc.first + "\n")
			got := f.next()
			stderr := f.close()
			if !sameJSON(t, got, want) {
				t.Fatalf("the front answered\n%s\nthe core answers\n%s", got, want)
			}
			if !strings.Contains(stderr, resumedNote) || strings.Contains(stderr, "differently") {
				t.Fatalf("the core's log does not show a session the front answered alike:\n%s", stderr)
			}
		})
	}
}

// firstAnswer returns bin's answer to the line first.
func firstAnswer(tb testing.TB, bin, first string, args ...string) string {
	tb.Helper()
	s := start(tb, bin, args...)
	s.send(first + "\n")
	answer := s.next()
	s.close()
	return answer
}

// A whole session through the front, with the go-sdk client: the tools
// answer and every call is recorded.
func TestFront_Session(t *testing.T) {
	ws := newWorkspace(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c, err := mcp.ConnectCommand(ctx, exec.Command(front, "serve", "--workspace", ws))
	if err != nil {
		t.Fatal(err)
	}
	tools, err := c.Tools(ctx)
	if err != nil || len(tools) != 7 {
		t.Fatalf("tools %v, %v", tools, err)
	}
	if !strings.Contains(c.Instructions(), "memsetup") {
		t.Fatalf("instructions %q", c.Instructions())
	}
	if _, isErr, err := c.Call(ctx, "memsetup", map[string]any{"session_id": "front-1", "knownHashes": map[string]string{"META_PROMPT.md": ""}}); err != nil || isErr {
		t.Fatalf("memsetup: %v %v", isErr, err)
	}
	disc, isErr, err := c.Call(ctx, "memdisc", map[string]any{"kind": "rule"})
	if err != nil || isErr || disc["total"] == nil {
		t.Fatalf("memdisc: %v %v %v", disc, isErr, err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	r := run(t, nil, "", front, "events", "--workspace", ws, "--json")
	if r.code != 0 || !strings.Contains(r.stdout, `"type":"attest.setup"`) || !strings.Contains(r.stdout, `"type":"attest.discover"`) {
		t.Fatalf("events (code %d):\n%s\n%s", r.code, r.stdout, r.stderr)
	}
}

// A client that sends on before it reads the answer: what the front read
// past the first line reaches the core, and every request is answered
// once.
func TestFront_PipelinedLines(t *testing.T) {
	ws := newWorkspace(t)
	s := start(t, front, "serve", "--workspace", ws, "--log-level", "debug")
	s.send(initialize + "\n" + initialized + "\n" + `{"jsonrpc":"2.0","id":2,"method":"tools/list"}` + "\n" + `{"jsonrpc":"2.0","id":3,"method":"ping"}` + "\n")
	// The front's answer comes first; the SDK answers calls as they
	// finish, so 2 and 3 in either order.
	seen := map[string]int{}
	for i := range 3 {
		got := s.next()
		var answer map[string]json.RawMessage
		if err := json.Unmarshal([]byte(got), &answer); err != nil || answer["result"] == nil {
			t.Fatalf("got %.300s, want a result", got)
		}
		if id := string(answer["id"]); i == 0 && id != "1" {
			t.Fatalf("first answer %.300s, want initialize's", got)
		}
		seen[string(answer["id"])]++
	}
	if seen["1"] != 1 || seen["2"] != 1 || seen["3"] != 1 {
		t.Fatalf("answers by id: %v, want each of 1, 2, 3 once", seen)
	}
	stderr := s.close()
	if !strings.Contains(stderr, resumedNote) || strings.Contains(stderr, "handedOverBytes=0") {
		t.Fatalf("the core was not handed the lines after the first:\n%s", stderr)
	}
}

// What the front does not answer reaches the core as it was sent.
func TestFront_LeavesTheRestToTheCore(t *testing.T) {
	ws := newWorkspace(t)
	for _, tc := range []struct {
		name, first, want string
	}{
		{"a line that is not JSON", "{oops\n", `"code":-32700`},
		{"a request before initialize", `{"jsonrpc":"2.0","id":5,"method":"tools/list"}` + "\n", `"code":-32600`},
		{"a protocol version to negotiate", strings.Replace(initialize, "2025-06-18", "2026-07-28", 1) + "\n", `"protocolVersion":"2025-11-25"`},
		{"an unknown protocol version", strings.Replace(initialize, "2025-06-18", "2023-01-01", 1) + "\n", `"protocolVersion":"2025-11-25"`},
		{"a line without its end, then the end of the input", initialize, `"protocolVersion":"2025-06-18"`},
		{"an initialize whose string id is not UTF-8", strings.Replace(initialize, `"id":1`, "\"id\":\"\xff\"", 1) + "\n", `"id":null,"error":{"code":-32600`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := run(t, nil, tc.first, front, "serve", "--workspace", ws)
			if !strings.Contains(r.stdout, tc.want) || strings.Count(r.stdout, "\n") != 1 || !utf8.ValidString(r.stdout) {
				t.Fatalf("stdout %q, want one answer with %s; stderr:\n%s", r.stdout, tc.want, r.stderr)
			}
			want := run(t, nil, tc.first, core, "serve", "--workspace", ws)
			if !sameJSON(t, r.stdout, want.stdout) {
				t.Fatalf("the front's session answered\n%s\nthe core alone\n%s", r.stdout, want.stdout)
			}
		})
	}
}

// The command line through the front is the core's: the same output, the
// same errors, the same exit status.
func TestFront_CommandLine(t *testing.T) {
	ws := newWorkspace(t)
	for _, args := range [][]string{
		{},
		{"version", "--json"},
		{"serve", "--bogus"},
		{"serve", "stray"},
		{"serve", "--sync", "never"},
		{"serve", "--log-level", "loud"},
		{"serve", "--checkpoint-every", "-1"},
		{"serve", "--workspace", filepath.Join(ws, "missing")},
		{"serve", "--http", "nowhere:x"},
		{"stats", "--workspace", ws, "--json"},
		{"no-such-command"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			got := run(t, nil, "", front, args...)
			want := run(t, nil, "", core, args...)
			if got != want {
				t.Fatalf("through the front: %+v\nthe core: %+v", got, want)
			}
		})
	}
}

// The front finds the core beside itself, on PATH or in $CLUMSIES_CORE,
// and says what to do when it cannot.
func TestFront_FindsTheCore(t *testing.T) {
	alone := t.TempDir()
	lone := filepath.Join(alone, "clumsies")
	copyFile(t, front, lone)
	r := run(t, []string{"PATH=/usr/bin:/bin"}, "", lone, "version")
	if r.code != 1 || !strings.Contains(r.stderr, "clumsies-core was not found") || !strings.Contains(r.stderr, "CLUMSIES_CORE") {
		t.Fatalf("without the core: %+v", r)
	}
	if r := run(t, []string{"CLUMSIES_CORE=" + core}, "", lone, "version"); r.code != 0 || r.stdout == "" {
		t.Fatalf("with $CLUMSIES_CORE: %+v", r)
	}
	if r := run(t, []string{"PATH=" + dir + ":/usr/bin:/bin"}, "", lone, "version"); r.code != 0 || r.stdout == "" {
		t.Fatalf("with the core on PATH: %+v", r)
	}
	if r := run(t, []string{"CLUMSIES_CORE=" + filepath.Join(alone, "nothing")}, "", lone, "version"); r.code != 1 || !strings.Contains(r.stderr, "$CLUMSIES_CORE") {
		t.Fatalf("with a wrong $CLUMSIES_CORE: %+v", r)
	}
}

// A front from another build than the core's answers with its own
// version; the core sees the difference and says so.
func TestFront_ADifferentBuildIsSaid(t *testing.T) {
	other := t.TempDir()
	build := exec.Command("go", "build", "-o", filepath.Join(other, "clumsies"), "-ldflags", "-X main.ldVersion=v0.0.0-another-build", ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	copyFile(t, core, filepath.Join(other, "clumsies-core"))
	ws := newWorkspace(t)
	s := start(t, filepath.Join(other, "clumsies"), "serve", "--workspace", ws)
	s.send(initialize + "\n")
	if got := s.next(); !strings.Contains(got, "v0.0.0-another-build") {
		t.Fatalf("answer %.300s", got)
	}
	s.send(initialized + "\n" + `{"jsonrpc":"2.0","id":2,"method":"ping"}` + "\n")
	s.next()
	if stderr := s.close(); !strings.Contains(stderr, "differently") || !strings.Contains(stderr, "different builds") {
		t.Fatalf("the core did not say so:\n%s", stderr)
	}
}

// A handover in the environment the front was started with is not passed
// on: only the front's own reaches the core.
func TestFront_IgnoresAnInheritedHandover(t *testing.T) {
	r := run(t, []string{"CLUMSIES_HANDOVER=junk"}, "", front, "version")
	if r.code != 0 || r.stderr != "" {
		t.Fatalf("%+v", r)
	}
}

func copyFile(tb testing.TB, from, to string) {
	tb.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o755); err != nil {
		tb.Fatal(err)
	}
}

// A META_PROMPT too large to hand over in the environment is not answered
// by the front: the core answers it, the same answer as ever.
func TestFront_LargeFrameIsLeftToTheCore(t *testing.T) {
	ws := newWorkspace(t)
	frame := "# Big\n\n" + strings.Repeat("A line of the frame that makes it long. ", 3500) + "\n"
	if err := os.WriteFile(filepath.Join(ws, ".clumsies", content.MetaPromptPath), []byte(frame), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"serve", "--workspace", ws, "--log-level", "debug"}
	want := firstAnswer(t, core, initialize, args...)
	f := start(t, front, args...)
	f.send(initialize + "\n")
	got := f.next()
	stderr := f.close()
	if !sameJSON(t, got, want) || !strings.Contains(got, "makes it long") {
		t.Fatalf("the answer through the front differs from the core's")
	}
	if !strings.Contains(stderr, `answered=""`) {
		t.Fatalf("the front answered a frame of %d bytes itself:\n%.2000s", len(frame), stderr)
	}
}

// A client that sends nothing at once gets the core at once: it owns and
// opens the workspace (its socket is up for hooks and other processes)
// and answers initialize itself when it comes.
func TestFront_AQuietClientGetsTheCoreAtOnce(t *testing.T) {
	root := newWorkspace(t)
	ws, err := workspace.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	s := start(t, front, "serve", "--workspace", root, "--log-level", "debug")
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(10 * time.Millisecond) {
		// A long state path's socket is where the owner records it.
		if _, err := os.Stat(node.SocketPath(ws.StateDir())); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no owner socket for %s within a minute of a quiet start; stderr:\n%s", ws.StateDir(), s.stderr)
		}
	}
	s.send(initialize + "\n")
	if got := s.next(); !strings.Contains(got, `"protocolVersion":"2025-06-18"`) {
		t.Fatalf("answer %.300s", got)
	}
	if stderr := s.close(); strings.Contains(stderr, resumedNote) {
		t.Fatalf("the front read a quiet client's input:\n%s", stderr)
	}
}

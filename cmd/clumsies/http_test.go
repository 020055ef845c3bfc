package main_test

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/clumsies/clumsies/internal/testbin"
	"github.com/clumsies/clumsies/workspace"
)

var servingRE = regexp.MustCompile(`serving MCP at http://([^/\s]+)/mcp`)

// serveHTTP starts `clumsies serve --http` and returns its base URL.
func serveHTTP(tb testing.TB, dir string, args ...string) string {
	tb.Helper()
	return "http://" + startSaying(tb, servingRE, append([]string{"serve", "--workspace", dir}, args...)...)[1]
}

// startSaying starts the binary with args and returns the submatches of
// the first line it writes on stderr that matches re. The process is
// interrupted when the test ends.
func startSaying(tb testing.TB, re *regexp.Regexp, args ...string) []string {
	tb.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	stderr, err := cmd.StderrPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		cancel()
		cmd.Wait()
	})
	lines := bufio.NewScanner(stderr)
	var said strings.Builder
	for lines.Scan() {
		said.WriteString(lines.Text() + "\n")
		if m := re.FindStringSubmatch(lines.Text()); m != nil {
			go io.Copy(io.Discard, stderr)
			return m
		}
	}
	tb.Fatalf("clumsies %s never said a line matching %s; it said:\n%s", strings.Join(args, " "), re, said.String())
	return nil
}

// bearerClient is an HTTP client that sends token as a bearer token.
func bearerClient(token string) *http.Client {
	return &http.Client{Transport: bearer{token}}
}

type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

func get(tb testing.TB, url, token string) *http.Response {
	tb.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		tb.Fatalf("GET %s: %v", url, err)
	}
	return resp
}

// TestServe_HTTP checks the HTTP front of the binary: /healthz, MCP at /mcp,
// the ledger as SSE at /events, and the bearer token it requires by
// default: made on first use into the state folder, readable only by its
// user, and kept for the next start.
func TestServe_HTTP(t *testing.T) {
	dir := newWorkspace(t)
	base := serveHTTP(t, dir, "--http", "127.0.0.1:0")
	token := testbin.HTTPToken(t, dir)
	ws, _ := workspace.Open(dir)
	if fi, err := os.Stat(filepath.Join(ws.StateDir(), "http-token")); err != nil || fi.Mode().Perm() != 0o600 || len(token) < 32 {
		t.Fatalf("the kept token: %v, %v, %d characters; want mode 0600 and at least 32", fi.Mode(), err, len(token))
	}
	if again := serveHTTP(t, dir, "--http", "127.0.0.1:0"); testbin.HTTPToken(t, dir) != token {
		t.Fatalf("a second serve (%s) changed the kept token", again)
	}

	if resp := get(t, base+"/healthz", ""); resp.StatusCode != http.StatusOK {
		t.Fatalf("/healthz: got %d, want 200", resp.StatusCode)
	}
	if resp := get(t, base+"/events", ""); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("/events without the token: got %d, want 401", resp.StatusCode)
	}

	req, _ := http.NewRequest(http.MethodPost, base+"/mcp", strings.NewReader(
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"e2e","version":"1"}}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Mcp-Session-Id") == "" || !strings.Contains(string(body), `"clumsies"`) {
		t.Fatalf("initialize over HTTP: got %d %q (session %q), want 200 from clumsies with a session id", resp.StatusCode, body, resp.Header.Get("Mcp-Session-Id"))
	}

	// The three catalog events published on start, replayed from the first.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req, _ = http.NewRequestWithContext(ctx, http.MethodGet, base+"/events?from=1&type=catalog", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); resp.StatusCode != http.StatusOK || !strings.HasPrefix(ct, "text/event-stream") {
		t.Fatalf("/events: got %d %s, want 200 text/event-stream", resp.StatusCode, ct)
	}
	sse := bufio.NewScanner(resp.Body)
	var ids []string
	for len(ids) < 3 && sse.Scan() {
		if id, ok := strings.CutPrefix(sse.Text(), "id: "); ok {
			ids = append(ids, id)
		}
	}
	if strings.Join(ids, ",") != "1,2,3" {
		t.Fatalf("/events: got ids %v, want 1,2,3", ids)
	}
}

func TestServe_HTTPNeedsTokenOffLoopback(t *testing.T) {
	dir := newWorkspace(t)
	r := run(t, dir, "serve", "--http", "0.0.0.0:0", "--no-token")
	if r.code != 2 || !strings.Contains(r.stderr, "--token") {
		t.Fatalf("serve --http 0.0.0.0:0 --no-token: got exit %d, %q; want exit 2 asking for a token", r.code, r.stderr)
	}
}

// TestServe_HTTPTokenFlags checks the other ways to give the token:
// --token-file, --token (with a warning: the process list shows it),
// --no-token on loopback, and no two of them at once.
func TestServe_HTTPTokenFlags(t *testing.T) {
	dir := newWorkspace(t)
	file := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(file, []byte("fr0m-a-file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	base := serveHTTP(t, dir, "--http", "127.0.0.1:0", "--token-file", file)
	if resp := get(t, base+"/api/overview", ""); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("--token-file: GET /api/overview without the token: %d, want 401", resp.StatusCode)
	}
	if resp := get(t, base+"/api/overview", "fr0m-a-file"); resp.StatusCode != http.StatusOK {
		t.Errorf("--token-file: GET /api/overview with the file's token: %d, want 200", resp.StatusCode)
	}
	open := serveHTTP(t, dir, "--http", "127.0.0.1:0", "--no-token")
	if resp := get(t, open+"/api/overview", ""); resp.StatusCode != http.StatusOK {
		t.Errorf("--no-token: GET /api/overview: %d, want 200", resp.StatusCode)
	}
	r := run(t, dir, "serve", "--http", "nowhere:x", "--token", "s3cret")
	if r.code != 2 || !strings.Contains(r.stderr, "process list") {
		t.Errorf("serve --token: exit %d %q, want a warning that the process list shows it", r.code, r.stderr)
	}
	for _, args := range [][]string{
		{"--token", "s3cret", "--no-token"},
		{"--token-file", file, "--no-token"},
		{"--token-file", filepath.Join(t.TempDir(), "missing")},
	} {
		if r := run(t, dir, append([]string{"serve", "--http", "127.0.0.1:0"}, args...)...); r.code != 2 {
			t.Errorf("serve --http %q: exit %d %q, want 2", args, r.code, r.stderr)
		}
	}
}

// TestServe_HTTPStatelessProtocol checks that serve --http serves protocol
// 2026-07-28 as Inspector's modern era speaks it: server/discover, then a
// tools/call, each a POST of its own with the version in its header and
// _meta and no session.
func TestServe_HTTPStatelessProtocol(t *testing.T) {
	dir := newWorkspace(t)
	base := serveHTTP(t, dir, "--http", "127.0.0.1:0")
	token := testbin.HTTPToken(t, dir)
	const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"e2e","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}`
	post := func(method, name, body string) (int, string) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, base+"/mcp", strings.NewReader(body))
		req.Header.Set("Mcp-Method", method)
		if name != "" {
			req.Header.Set("Mcp-Name", name)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return resp.StatusCode, string(b)
	}
	code, body := post("server/discover", "", `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{`+meta+`}}`)
	if code != http.StatusOK || !strings.Contains(body, `"2026-07-28"`) || !strings.Contains(body, `"clumsies"`) {
		t.Fatalf("server/discover at 2026-07-28: got %d %q, want 200 from clumsies listing 2026-07-28", code, body)
	}
	code, body = post("tools/call", "memsetup", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"memsetup","arguments":{"session_id":"modern-e2e","knownHashes":{"META_PROMPT.md":""}},`+meta+`}}`)
	if code != http.StatusOK || !strings.Contains(body, `modern-e2e`) || strings.Contains(body, `"isError":true`) {
		t.Fatalf("memsetup at 2026-07-28: got %d %q, want it answered", code, body)
	}
	secret := secretRE.FindString(body) // the secret memsetup issued the session
	if secret == "" {
		t.Fatalf("memsetup at 2026-07-28 of a fresh session: %q, want a sessionSecret", body)
	}
	code, body = post("tools/call", "memdisc", `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"memdisc","arguments":{"session_id":"modern-e2e","session_secret":"`+secret+`"},`+meta+`}}`)
	if code != http.StatusOK || !strings.Contains(body, `CODING`) || strings.Contains(body, `"isError":true`) {
		t.Fatalf("memdisc at 2026-07-28 with session_id: got %d %q, want the catalog", code, body)
	}
}

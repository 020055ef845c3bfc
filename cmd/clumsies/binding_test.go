package main_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/clumsies/clumsies/agent/adapt"
	"github.com/clumsies/clumsies/internal/testbin"
	"github.com/clumsies/clumsies/workspace"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// toolAnswer calls tool on cs and returns its structured answer and whether
// it is an error.
func toolAnswer(tb testing.TB, cs *sdk.ClientSession, tool string, args map[string]any) (map[string]any, bool) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		tb.Fatalf("call %s: %v", tool, err)
	}
	b, _ := json.Marshal(res.StructuredContent)
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		tb.Fatalf("call %s: structured content %s: %v", tool, b, err)
	}
	return m, res.IsError
}

// refused checks that a call was refused with code, its message naming
// what to do (want).
func refused(tb testing.TB, what string, res map[string]any, isErr bool, code, want string) {
	tb.Helper()
	if !isErr || res["code"] != code || !strings.Contains(res["error"].(string), want) {
		tb.Fatalf("%s: got isError=%v %v; want %s saying %q", what, isErr, res, code, want)
	}
}

// statelessClient connects to base's MCP at protocol 2026-07-28, where
// each request is a connection of its own.
func statelessClient(tb testing.TB, base, token string) *sdk.ClientSession {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "borrower", Version: "1"}, nil).
		Connect(ctx, &sdk.StreamableClientTransport{Endpoint: base + "/mcp", HTTPClient: bearerClient(token)}, nil)
	if err != nil {
		tb.Fatalf("connect to %s/mcp: %v", base, err)
	}
	tb.Cleanup(func() { cs.Close() })
	if v := cs.InitializeResult().ProtocolVersion; v != "2026-07-28" {
		tb.Fatalf("negotiated %s, want 2026-07-28", v)
	}
	return cs
}

// TestBinding_BorrowedSessionOverHTTP plays the attack on attribution: a
// second HTTP client with the workspace's token reads the victim's
// session id from /api/sessions and tries to memsetup, memload, report
// and rewrite the victim's draft under it, over an HTTP session and over
// protocol 2026-07-28. Every try is refused with a clear error; the
// victim's stop hook still holds it for its unanswered prompt; the owner
// keeps working; a resume through the hook, on a new connection, works;
// no secret shows in /api/sessions.
func TestBinding_BorrowedSessionOverHTTP(t *testing.T) {
	dir := newWorkspace(t)
	base := serveHTTP(t, dir, "--http", "127.0.0.1:0")
	tok := testbin.HTTPToken(t, dir)

	var owner *sdk.ClientSession
	var secret string
	id := hookSession(t, dir, "victim-8a1f", func(id, s string) { owner, secret = mcpSessionWith(t, base, tok, id, s), s })
	draft, isErr := toolAnswer(t, owner, "artifact", map[string]any{"resource": "context", "op": map[string]any{"create": map[string]any{"path": "team/ONCALL", "body": "# On call\n\nAnn.\n"}}})
	if isErr {
		t.Fatalf("the owner's draft: %v", draft)
	}

	// The borrower finds the id in the dashboard's API.
	resp := get(t, base+"/api/sessions", tok)
	listing, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(listing), id) {
		t.Fatalf("/api/sessions: %d %s, want the victim's session listed", resp.StatusCode, listing)
	}
	for _, leak := range []string{secret, "css-", "secretHash", "secrets"} {
		if strings.Contains(string(listing), leak) {
			t.Fatalf("/api/sessions shows %q: %s", leak, listing)
		}
	}

	// Over an HTTP session: memsetup of the victim's id is refused, so
	// every call after it has no session.
	borrower := mcpSessionNoSetup(t, base, tok)
	res, isErr := toolAnswer(t, borrower, "memsetup", map[string]any{"session_id": id, "knownHashes": map[string]any{"META_PROMPT.md": ""}})
	refused(t, "memsetup of the victim's id", res, isErr, "session_conflict", "must pass session_secret")
	res, isErr = toolAnswer(t, borrower, "memsetup", map[string]any{"session_id": id, "session_secret": "css-0123456789abcdef0123456789abcdef", "knownHashes": map[string]any{"META_PROMPT.md": ""}})
	refused(t, "memsetup of the victim's id with a guessed secret", res, isErr, "session_conflict", "is not the secret of session")
	res, isErr = toolAnswer(t, borrower, "agentreport", map[string]any{"summary": "done"})
	refused(t, "agentreport after the refused memsetup", res, isErr, "session_required", "call memsetup")

	// Over protocol 2026-07-28: naming the victim's session is refused.
	sl := statelessClient(t, base, tok)
	for _, tc := range []struct {
		tool string
		args map[string]any
	}{
		{"memdisc", map[string]any{}},
		{"agentreport", map[string]any{"summary": "done"}},
		{"artifact", map[string]any{"resource": "context", "op": map[string]any{"update": map[string]any{"id": draft["id"], "body": "# On call\n\nMallory.\n"}}}},
	} {
		tc.args["session_id"] = id
		res, isErr := toolAnswer(t, sl, tc.tool, tc.args)
		refused(t, tc.tool+" naming the victim's session over 2026-07-28", res, isErr, "session_conflict", "session_secret")
	}

	// The victim's prompt is still unanswered: its stop hook holds it.
	if !stopHook(t, dir, id, false) {
		t.Fatal("the victim's stop was let go: a borrowed report satisfied it")
	}
	// The owner keeps working, its draft as it wrote it.
	callTool(t, owner, "agentreport", map[string]any{"summary": "added the on-call page"})
	if stopHook(t, dir, id, false) {
		t.Fatal("the owner's report did not satisfy its stop hook")
	}

	// A resume: the hook hands a new secret, and a new connection sets the
	// session up with it; the old secret still binds too.
	m := resume(t, dir, id)
	if m[2] == secret {
		t.Fatalf("the resume handed the first secret again; want a new one")
	}
	resumed := mcpSessionWith(t, base, tok, id, m[2])
	callTool(t, resumed, "memdisc", map[string]any{})
	callTool(t, mcpSessionWith(t, base, tok, id, secret), "memdisc", map[string]any{})
	// Over 2026-07-28 the owner names its session with its secret.
	for _, tool := range []string{"memsetup", "memdisc"} {
		args := map[string]any{"session_id": id, "session_secret": m[2]}
		if tool == "memsetup" {
			args["knownHashes"] = map[string]any{"META_PROMPT.md": ""}
		}
		if res, isErr := toolAnswer(t, sl, tool, args); isErr {
			t.Fatalf("%s over 2026-07-28 with the session's secret: %v", tool, res)
		}
	}

	// The attestation names how each session is bound, and who set it up.
	var st struct {
		SessionList []struct{ ID, Bound, Client string }
	}
	if err := json.Unmarshal([]byte(mustRun(t, dir, "stats", "--json")), &st); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, s := range st.SessionList {
		if s.ID == id {
			found = true
			if s.Bound != "hook" || s.Client != "borrower 1" && s.Client != "dashboard-test 1" {
				t.Errorf("stats --json, session %s: bound %q, client %q; want bound by the hook, with its client", id, s.Bound, s.Client)
			}
		}
	}
	if !found {
		t.Errorf("stats --json lists no session %s", id)
	}

	// The ledger keeps no secret in clear, and records who called.
	out := mustRun(t, dir, "events", "--json")
	for _, leak := range []string{secret, m[2], "css-0123456789abcdef"} {
		if strings.Contains(out, leak) {
			t.Fatalf("the ledger holds a secret in clear (%s)", leak)
		}
	}
	if !strings.Contains(out, `"client":"borrower"`) || !strings.Contains(out, `"client":"dashboard-test"`) || !strings.Contains(out, `"conn":"c-`) {
		t.Fatalf("events do not record the MCP client and connection:\n%s", out)
	}
}

// mcpSessionNoSetup connects to base's MCP over an HTTP session
// (protocol 2025-11-25) and sets nothing up.
func mcpSessionNoSetup(tb testing.TB, base, token string) *sdk.ClientSession {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "borrower", Version: "1"}, nil).
		Connect(ctx, &sdk.StreamableClientTransport{Endpoint: base + "/mcp", HTTPClient: bearerClient(token)}, &sdk.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		tb.Fatalf("connect to %s/mcp: %v", base, err)
	}
	tb.Cleanup(func() { cs.Close() })
	return cs
}

// resume runs Claude Code's session-start hook for a resumed session id
// and returns what it announced: the match of announced, the id and the
// secret.
func resume(tb testing.TB, dir, id string) []string {
	tb.Helper()
	var in map[string]any
	if err := json.Unmarshal(claudeInput(tb, adapt.SessionStart, id, dir, false), &in); err != nil {
		tb.Fatal(err)
	}
	in["source"] = "resume"
	b, _ := json.Marshal(in)
	r := runHook(tb, dir, "claude-code", adapt.SessionStart, b)
	var out struct {
		HookSpecificOutput struct{ AdditionalContext string }
	}
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &out) != nil {
		tb.Fatalf("resume hook: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	m := announced.FindStringSubmatch(out.HookSpecificOutput.AdditionalContext)
	if m == nil || m[1] != id || m[2] == "" {
		tb.Fatalf("resume hook: context %q; want the id %s and a secret", out.HookSpecificOutput.AdditionalContext, id)
	}
	return m
}

// TestBinding_StdioAndHook: over stdio, a second agent process that
// memsetups a hooked session's id without its secret is refused; the
// owner keeps working; after a resume the hook's new secret sets the
// session up on a new stdio connection.
func TestBinding_StdioAndHook(t *testing.T) {
	dir := newWorkspace(t)
	_, owner := serve(t, dir)
	var secret string
	id := hookSession(t, dir, "stdio-victim", func(id, s string) { secret = s; setupWith(t, owner, id, s) })
	_, borrower := serve(t, dir)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, isErr, err := borrower.Call(ctx, "memsetup", map[string]any{"session_id": id, "knownHashes": map[string]any{"META_PROMPT.md": ""}})
	if err != nil || !isErr || res["code"] != "session_conflict" || !strings.Contains(res["error"].(string), "session_secret") {
		t.Fatalf("memsetup of a hooked session's id without its secret over stdio: %v %v %v; want session_conflict naming session_secret", res, isErr, err)
	}
	call(t, owner, "agentreport", map[string]any{"summary": "done"})

	m := resume(t, dir, id)
	if m[2] == secret {
		t.Fatalf("the resume handed the first secret again; want a new one")
	}
	_, resumed := serve(t, dir)
	setupWith(t, resumed, id, m[2])
	call(t, resumed, "memdisc", map[string]any{})
}

// TestWorkspaceName: init names a workspace after its folder; the name in
// config.toml is what stats shows, beside the id, once edited.
func TestWorkspaceName(t *testing.T) {
	dir := newWorkspace(t)
	ws, err := workspace.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if out := mustRun(t, dir, "stats"); !strings.Contains(out, "Workspace "+filepath.Base(dir)+" ("+ws.ID()+"): ") {
		t.Fatalf("stats does not name the workspace after its folder:\n%s", out)
	}
	cfg := filepath.Join(dir, ".clumsies", "config.toml")
	b, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	b = regexp.MustCompile(`(?m)^name = .*$`).ReplaceAll(b, []byte(`name = "payments api"`))
	if err := os.WriteFile(cfg, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if out := mustRun(t, dir, "stats"); !strings.Contains(out, "Workspace payments api ("+ws.ID()+"): ") {
		t.Fatalf("stats does not show the name edited in config.toml:\n%s", out)
	}
	var st struct{ WorkspaceName string }
	if err := json.Unmarshal([]byte(mustRun(t, dir, "stats", "--json")), &st); err != nil || st.WorkspaceName != "payments api" {
		t.Fatalf("stats --json workspaceName: %q, %v; want payments api", st.WorkspaceName, err)
	}
}

package main_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/clumsies/clumsies/agent/adapt"
)

// scopedWorkspace is a workspace with a rule for api/**/*.go and the gate
// in mode; it returns the workspace folder.
func scopedWorkspace(t *testing.T, mode string) string {
	t.Helper()
	dir := newWorkspace(t)
	rule := filepath.Join(dir, ".clumsies", "rules", "api", "HANDLERS.md")
	if err := os.MkdirAll(filepath.Dir(rule), 0o755); err != nil {
		t.Fatal(err)
	}
	body := "---\npaths:\n  - \"api/**/*.go\"\n---\n# Handlers\n\nHow handlers answer.\n\n## Errors\n\n- Map errors to status codes in one place.\n"
	if err := os.WriteFile(rule, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	setEnforce(t, dir, mode)
	return dir
}

// setEnforce sets [enforce] mode in the workspace's config.toml.
func setEnforce(t *testing.T, dir, mode string) {
	t.Helper()
	cfg := filepath.Join(dir, ".clumsies", "config.toml")
	b, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if i := bytes.Index(b, []byte("\n[enforce]")); i >= 0 {
		b = b[:i+1]
	}
	b = append(b, "\n[enforce]\nmode = \""+mode+"\"\n"...)
	if err := os.WriteFile(cfg, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// toolInput is a pre-tool input of host for tool on file, in session id:
// Copilot CLI's camelCase (toolArgs a JSON string holding path), or the
// snake_case of the others.
func toolInput(t *testing.T, host, id, dir, tool, file string) []byte {
	t.Helper()
	event := map[string]string{"claude-code": "PreToolUse", "gemini-cli": "BeforeTool"}[host]
	in := map[string]any{"session_id": id, "cwd": dir, "hook_event_name": event,
		"tool_name": tool, "tool_input": map[string]any{"file_path": file, "content": "package api\n"}}
	if host == "copilot" {
		args, _ := json.Marshal(map[string]string{"path": file, "file_text": "package api\n"})
		in = map[string]any{"sessionId": id, "timestamp": int64(1795715998101), "cwd": dir, "toolName": tool, "toolArgs": string(args)}
	}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// preTool runs the pre-tool hook, which must exit 0 and print JSON or
// nothing.
func preTool(t *testing.T, dir, host string, in []byte) string {
	t.Helper()
	r := runHook(t, dir, host, adapt.PreTool, in)
	if r.code != 0 || (r.stdout != "" && !json.Valid([]byte(r.stdout))) {
		t.Fatalf("pre-tool hook: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	return r.stdout
}

var memloadIDs = regexp.MustCompile(`memload with (\{"ids":\[[^\]]*\],"knownHashes":\{[^}]*\}\})`)

// TestHook_PreToolGate plays Claude Code against the built binary with
// `clumsies serve` owning the workspace: in block mode an edit of a file a
// rule applies to is denied, naming the memload call, until the session
// loads the rule; reads and files out of scope are never gated; warn mode
// tells the agent instead; off mode is neutral.
func TestHook_PreToolGate(t *testing.T) {
	dir := scopedWorkspace(t, "block")
	_, cl := serve(t, dir)
	const id = "gate-session-1"
	setup(t, cl, id)
	handler := filepath.Join(dir, "api", "v1", "handler.go")

	out := preTool(t, dir, "claude-code", toolInput(t, "claude-code", id, dir, "Edit", handler))
	var deny struct {
		HookSpecificOutput struct {
			HookEventName, PermissionDecision, PermissionDecisionReason string
		}
	}
	if err := json.Unmarshal([]byte(out), &deny); err != nil || deny.HookSpecificOutput.HookEventName != "PreToolUse" ||
		deny.HookSpecificOutput.PermissionDecision != "deny" {
		t.Fatalf("edit in scope, rule not loaded: got %q, want Claude Code's deny", out)
	}
	m := memloadIDs.FindStringSubmatch(deny.HookSpecificOutput.PermissionDecisionReason)
	if m == nil || !strings.Contains(deny.HookSpecificOutput.PermissionDecisionReason, "api/v1/handler.go") {
		t.Fatalf("the reason %q names neither the file nor the memload call", deny.HookSpecificOutput.PermissionDecisionReason)
	}
	evs := eventLines(t, dir, "--type", "attest.tool_gated")
	if len(evs) != 1 || evs[0]["sessionId"] != id {
		t.Fatalf("got %d attest.tool_gated events (%v), want 1 of session %s", len(evs), evs, id)
	}
	data := evs[0]["data"].(map[string]any)
	if data["decision"] != "deny" || data["tool"] != "Edit" || data["host"] != "claude-code" ||
		data["paths"].([]any)[0] != "api/v1/handler.go" || len(data["missing"].([]any)) != 1 {
		t.Fatalf("attest.tool_gated %v, want the denied edit with the missing rule", data)
	}

	// Reads, files no rule applies to and files outside the workspace
	// are never gated.
	for name, in := range map[string][]byte{
		"read":         toolInput(t, "claude-code", id, dir, "Read", handler),
		"out of scope": toolInput(t, "claude-code", id, dir, "Write", filepath.Join(dir, "README.md")),
		"outside":      toolInput(t, "claude-code", id, dir, "Write", "/etc/motd"),
		"relative":     toolInput(t, "claude-code", id, dir, "Write", "docs/x.md"),
	} {
		if out := preTool(t, dir, "claude-code", in); out != "" {
			t.Errorf("%s: got %q, want the neutral answer", name, out)
		}
	}

	// The exact call the reason names loads the rule; then the edit runs.
	var args map[string]any
	if err := json.Unmarshal([]byte(m[1]), &args); err != nil {
		t.Fatal(err)
	}
	call(t, cl, "memload", args)
	if out := preTool(t, dir, "claude-code", toolInput(t, "claude-code", id, dir, "Edit", handler)); out != "" {
		t.Fatalf("edit after memload of the rule: got %q, want it allowed", out)
	}

	// Gemini CLI's BeforeTool, another session that loaded nothing.
	_, cl2 := serve(t, dir)
	setup(t, cl2, "gate-session-2")
	out = preTool(t, dir, "gemini-cli", toolInput(t, "gemini-cli", "gate-session-2", dir, "write_file", handler))
	var gdeny struct{ Decision, Reason string }
	if err := json.Unmarshal([]byte(out), &gdeny); err != nil || gdeny.Decision != "deny" || !strings.Contains(gdeny.Reason, "memload") {
		t.Fatalf("Gemini CLI edit in scope: got %q, want its deny naming memload", out)
	}

	// Copilot CLI's preToolUse: its deny is at the top level. Its run of
	// Claude Code's hook answers in Copilot's form too, until Copilot's
	// own hooks are wired; then that one gates and Claude Code's stays
	// neutral, so an edit is gated (and recorded) once.
	var cdeny struct{ PermissionDecision, PermissionDecisionReason string }
	out = preTool(t, dir, "copilot", toolInput(t, "copilot", "gate-session-2", dir, "create", handler))
	if err := json.Unmarshal([]byte(out), &cdeny); err != nil || cdeny.PermissionDecision != "deny" ||
		!strings.Contains(cdeny.PermissionDecisionReason, "memload") {
		t.Fatalf("Copilot CLI edit in scope: got %q, want its top-level deny naming memload", out)
	}
	if out := preTool(t, dir, "copilot", toolInput(t, "copilot", "gate-session-2", dir, "view", handler)); out != "" {
		t.Fatalf("Copilot CLI read: got %q, want the neutral answer", out)
	}
	guest := toolInput(t, "claude-code", "gate-session-2", dir, "edit", handler)
	r := runHook(t, dir, "claude-code", adapt.PreTool, guest, "COPILOT_CLI=1", "HOME="+t.TempDir())
	if cdeny = (struct{ PermissionDecision, PermissionDecisionReason string }{}); json.Unmarshal([]byte(r.stdout), &cdeny) != nil ||
		cdeny.PermissionDecision != "deny" {
		t.Fatalf("Claude Code's hook run by Copilot CLI: got %q (stderr %q), want Copilot's deny", r.stdout, r.stderr)
	}
	if r := runIn(t, dir, t.TempDir(), "adapt", "copilot"); r.code != 0 {
		t.Fatalf("adapt copilot: exit %d, stderr %q", r.code, r.stderr)
	}
	if r := runHook(t, dir, "claude-code", adapt.PreTool, guest, "COPILOT_CLI=1", "HOME="+t.TempDir()); r.code != 0 || r.stdout != "" {
		t.Fatalf("Claude Code's hook run by Copilot CLI wired for itself: exit %d, stdout %q, want the neutral answer", r.code, r.stdout)
	}

	setEnforce(t, dir, "warn")
	out = preTool(t, dir, "claude-code", toolInput(t, "claude-code", "gate-session-2", dir, "Write", handler))
	var warn struct {
		HookSpecificOutput map[string]string
	}
	if err := json.Unmarshal([]byte(out), &warn); err != nil || warn.HookSpecificOutput["permissionDecision"] != "" ||
		!strings.Contains(warn.HookSpecificOutput["additionalContext"], "memload") {
		t.Fatalf("warn mode: got %q, want context naming memload and no decision", out)
	}

	setEnforce(t, dir, "off")
	if out := preTool(t, dir, "claude-code", toolInput(t, "claude-code", "gate-session-2", dir, "Write", handler)); out != "" {
		t.Fatalf("off mode: got %q, want the neutral answer", out)
	}
	decisions := map[string]int{}
	for _, ev := range eventLines(t, dir, "--type", "attest.tool_gated") {
		decisions[ev["data"].(map[string]any)["decision"].(string)]++
	}
	if decisions["deny"] != 4 || decisions["warn"] != 1 {
		t.Fatalf("gate events by decision: %v, want 4 deny and 1 warn", decisions)
	}
}

// TestHook_PreToolFailsOpen: no workspace, or an owner that does not
// answer, lets the edit run, and the hook says why on stderr.
func TestHook_PreToolFailsOpen(t *testing.T) {
	nowhere := t.TempDir()
	r := runHook(t, nowhere, "claude-code", adapt.PreTool, toolInput(t, "claude-code", "s-1", nowhere, "Edit", filepath.Join(nowhere, "api", "h.go")))
	if r.code != 0 || r.stdout != "" || !strings.Contains(r.stderr, "clumsies init") {
		t.Errorf("no workspace: exit %d, stdout %q, stderr %q; want the edit allowed and the reason on stderr", r.code, r.stdout, r.stderr)
	}

	dir := scopedWorkspace(t, "block")
	cmd, cl := serve(t, dir)
	setup(t, cl, "owner-alive")
	if err := cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Signal(syscall.SIGCONT)
	in := toolInput(t, "claude-code", "s-stopped", dir, "Edit", filepath.Join(dir, "api", "handler.go"))
	r = runHook(t, dir, "claude-code", adapt.PreTool, in)
	if r.code != 0 || r.stdout != "" || !strings.Contains(r.stderr, "the agent goes on") {
		t.Errorf("owner stopped: exit %d, stdout %q, stderr %q; want the edit allowed and the reason on stderr", r.code, r.stdout, r.stderr)
	}
}

// TestHook_PreToolFailsClosed: with [enforce] fail = "closed", an owner
// that does not answer denies the edit, saying why and what to run; the
// gate never says yes because it could not look.
func TestHook_PreToolFailsClosed(t *testing.T) {
	dir := scopedWorkspace(t, "block")
	cfg := filepath.Join(dir, ".clumsies", "config.toml")
	b, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, []byte(strings.Replace(string(b), "[enforce]\n", "[enforce]\nfail = \"closed\"\n", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	r := editWithOwnerStopped(t, dir)
	if r.code != 0 || !strings.Contains(r.stdout, `"permissionDecision":"deny"`) || !strings.Contains(r.stdout, "clumsies doctor") {
		t.Errorf("owner stopped, fail closed: exit %d, stdout %q, stderr %q; want a deny that says why", r.code, r.stdout, r.stderr)
	}
}

// TestHook_PreToolFailsClosed_WrongTable: a wrong [enforce] table fails
// closed too, and the deny says so.
func TestHook_PreToolFailsClosed_WrongTable(t *testing.T) {
	r := editWithOwnerStopped(t, scopedWorkspace(t, "blok"))
	if r.code != 0 || !strings.Contains(r.stdout, `"permissionDecision":"deny"`) || !strings.Contains(r.stdout, "its [enforce] table is wrong, so the gate fails closed") {
		t.Errorf("owner stopped, table wrong: exit %d, stdout %q, stderr %q; want a deny that says why", r.code, r.stdout, r.stderr)
	}
}

// editWithOwnerStopped runs serve in dir, stops it (SIGSTOP: it owns the
// workspace and answers nothing) and runs the pre-tool hook for an edit
// no rule applies to.
func editWithOwnerStopped(t *testing.T, dir string) result {
	t.Helper()
	cmd, cl := serve(t, dir)
	setup(t, cl, "owner-alive")
	if err := cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Signal(syscall.SIGCONT)
	in := toolInput(t, "claude-code", "s-closed", dir, "Edit", filepath.Join(dir, "README.md"))
	return runHook(t, dir, "claude-code", adapt.PreTool, in)
}

// TestHook_PreToolWithoutOwner: with no process owning the workspace the
// hook owns it for the check, as the other hooks do, and gates alike.
func TestHook_PreToolWithoutOwner(t *testing.T) {
	dir := scopedWorkspace(t, "block")
	mustRun(t, dir, "publish")
	out := preTool(t, dir, "gemini-cli", toolInput(t, "gemini-cli", "s-alone", dir, "replace", filepath.Join(dir, "api", "h.go")))
	if !strings.Contains(out, `"decision":"deny"`) {
		t.Fatalf("no owner: got %q, want the deny", out)
	}
	if evs := eventLines(t, dir, "--type", "attest.tool_gated"); len(evs) != 1 {
		t.Fatalf("got %d attest.tool_gated events, want 1", len(evs))
	}
}

package main_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/clumsies/clumsies/mcp"
)

// TestServe_FullSession drives the built binary over real stdio through a
// whole agent session, every tool included, then closes stdin and checks
// the clean exit and the ledger.
func TestServe_FullSession(t *testing.T) {
	dir := newWorkspace(t)
	cmd, cl := serve(t, dir)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	tools, err := cl.Tools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"agentrejected", "agentreport", "artifact", "memdisc", "memload", "memref", "memsetup"}
	slices.Sort(tools)
	if !slices.Equal(tools, want) {
		t.Fatalf("tools/list: got %v, want %v", tools, want)
	}
	if !strings.Contains(cl.Instructions(), "loaded rules > this meta-prompt > your defaults") {
		t.Fatalf("initialize instructions do not carry the META_PROMPT: %q", cl.Instructions())
	}

	calls := 0
	do := func(tool string, args map[string]any) map[string]any {
		t.Helper()
		calls++
		return call(t, cl, tool, args)
	}
	res := do("memsetup", map[string]any{"session_id": "full-session", "knownHashes": map[string]any{"META_PROMPT.md": ""}})
	mpf := res["mpf"].(map[string]any)
	if res["sessionId"] != "full-session" || !strings.HasPrefix(mpf["hash"].(string), "sha256:") || mpf["changed"] != true {
		t.Fatalf("memsetup: got %v", res)
	}
	again := do("memsetup", map[string]any{"session_id": "full-session", "knownHashes": map[string]any{"META_PROMPT.md": mpf["hash"]}})
	if m := again["mpf"].(map[string]any); m["changed"] != false || m["content"] != nil {
		t.Fatalf("memsetup with the known hash: got %v, want changed false and no content", m)
	}

	items := do("memdisc", map[string]any{})["items"].([]any)
	if len(items) != 2 {
		t.Fatalf("memdisc: got %d items, want the starter rule and workflow", len(items))
	}
	wf := workflowID(t, cl)
	calls++
	load := do("memload", map[string]any{"ids": []string{wf}, "knownHashes": map[string]any{wf: ""}})
	item := load["items"].([]any)[0].(map[string]any)
	body, _ := item["content"].(string)
	if item["changed"] != true || !strings.Contains(body, "\n---\n") || !strings.Contains(body, "memref") || !strings.Contains(body, wf) {
		t.Fatalf("memload: got %v, want content with the refer-reminder footer naming memref and %s", item, wf)
	}
	hash := item["hash"].(string)

	if res := do("memref", map[string]any{"refs": []any{
		map[string]any{"ruleId": wf, "constraintId": "Steps/2", "ruleHash": hash, "reason": "followed the existing pattern"},
		map[string]any{"ruleId": wf, "constraintId": "Steps/4"},
	}}); res["ok"] != true || res["count"] != float64(2) {
		t.Fatalf("memref: got %v, want ok with count 2", res)
	}

	created := do("artifact", map[string]any{"resource": "context", "op": map[string]any{"create": map[string]any{"path": "team/ONCALL", "body": "# On call\n\nWho to page.\n"}}})
	tmp := created["id"].(string)
	if !strings.HasPrefix(tmp, "tmp-context-") || created["draft_path"] != "team/ONCALL.md" {
		t.Fatalf("artifact create: got %v", created)
	}
	do("artifact", map[string]any{"resource": "context", "op": map[string]any{"update": map[string]any{"id": tmp, "body": "# On call\n\nWho to page, and when.\n"}}})
	do("artifact", map[string]any{"resource": "rule", "op": map[string]any{"update": map[string]any{"id": wf, "body": "# Coding\n\n## Steps\n\n- Write the test first.\n"}}})
	rule := ""
	for _, it := range items {
		if m := it.(map[string]any); m["kind"] == "rule" {
			rule = m["id"].(string)
		}
	}
	do("artifact", map[string]any{"resource": "rule", "op": map[string]any{"rename": map[string]any{"id": rule, "new_path": "style/ERROR_HANDLING"}}})

	disc := do("memdisc", map[string]any{})["items"].([]any)
	paths := map[string]bool{}
	for _, it := range disc {
		m := it.(map[string]any)
		paths[m["path"].(string)] = m["hasDraft"] == true
	}
	if !paths["team/ONCALL.md"] || !paths["style/ERROR_HANDLING.md"] || !paths["workflow/CODING.md"] {
		t.Fatalf("memdisc after drafts: got %v, want the create, rename and update drafts visible", paths)
	}
	// The draft is not the workflow until it is accepted: memload serves
	// the workflow in force, which the known hash names.
	reload := do("memload", map[string]any{"ids": []string{wf}, "knownHashes": map[string]any{wf: hash}})
	if it := reload["items"].([]any)[0].(map[string]any); it["changed"] != false || it["hasDraft"] != false || it["hash"] != hash {
		t.Fatalf("memload of a drafted workflow: got %v, want the published workflow, unchanged (%s)", it, hash)
	}

	do("artifact", map[string]any{"resource": "context", "op": map[string]any{"delete": map[string]any{"id": tmp}}})
	do("artifact", map[string]any{"resource": "rule", "op": map[string]any{"discard": map[string]any{"id": rule}}})
	do("agentrejected", map[string]any{"reason": "the first attempt ignored Steps/1"})
	do("agentreport", map[string]any{"summary": "rewrote the importer loop"})

	// Closing the client closes the server's stdin; it must exit cleanly by
	// itself (the SDK would only signal it after a grace period).
	cl.Close()
	if st := cmd.ProcessState; st == nil || !st.Success() {
		t.Fatalf("serve after stdin closed: got %v, want a clean exit", st)
	}

	evs := eventLines(t, dir, "--type", "attest")
	if len(evs) != calls {
		t.Fatalf("ledger: got %d tool events, want one per call (%d)", len(evs), calls)
	}
	for _, ev := range evs {
		if ev["sessionId"] != "full-session" || ev["outcome"] != "ok" {
			t.Fatalf("event %v: want session full-session and outcome ok", ev)
		}
	}
	mustRun(t, dir, "verify")
}

// TestServe_BadContentKeepsServing checks that a content file that cannot
// be published does not stop serve: the tools serve the last published
// content and stderr says what to fix.
func TestServe_BadContentKeepsServing(t *testing.T) {
	dir := newWorkspace(t)
	mustRun(t, dir, "publish")
	bad := dir + "/.clumsies/rules/style/BAD.md"
	if err := os.WriteFile(bad, []byte("# bad \xff\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(binary, "serve", "--workspace", dir)
	var stderr syncWriter
	cmd.Stderr = &stderr
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cl, err := mcp.ConnectCommand(ctx, cmd)
	if err != nil {
		t.Fatalf("serve with a bad content file: %v (stderr %q)", err, stderr.String())
	}
	defer cl.Close()
	setup(t, cl, "bad-content")
	items := call(t, cl, "memdisc", map[string]any{})["items"].([]any)
	if len(items) != 2 {
		t.Fatalf("memdisc: got %d items, want the 2 published before", len(items))
	}
	if s := stderr.String(); !strings.Contains(s, "rules/style/BAD.md") || !strings.Contains(s, "clumsies publish") {
		t.Fatalf("stderr: got %q, want the bad file named and advice to publish", s)
	}
}

// syncWriter is a bytes.Buffer safe for a process's writes and a test's reads.
type syncWriter struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (w *syncWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.Write(p)
}

func (w *syncWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// TestServe_SIGTERM checks the clean shutdown on SIGTERM: exit status 0 and
// the workspace free for the next process, with nothing lost.
func TestServe_SIGTERM(t *testing.T) {
	dir := newWorkspace(t)
	cmd, cl := serve(t, dir)
	setup(t, cl, "sigterm")
	call(t, cl, "agentreport", map[string]any{"summary": "before SIGTERM"})
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	// Wait until the process has exited by itself (a zombie, not yet
	// reaped), so that the client's Close below, which also closes stdin,
	// cannot be what stopped it.
	deadline := time.Now().Add(15 * time.Second)
	for !exited(cmd.Process.Pid) {
		if time.Now().After(deadline) {
			t.Fatal("serve did not exit after SIGTERM")
		}
		time.Sleep(10 * time.Millisecond)
	}
	done := make(chan struct{})
	go func() { cl.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(15 * time.Second):
		t.Fatal("serve did not stop after SIGTERM")
	}
	if st := cmd.ProcessState; st == nil || !st.Success() {
		t.Fatalf("serve after SIGTERM: got %v, want exit status 0", st)
	}
	if evs := eventLines(t, dir, "--type", "attest.agent_report"); len(evs) != 1 {
		t.Fatalf("got %d report events after SIGTERM, want 1", len(evs))
	}
}

// exited reports whether process pid has ended and awaits reaping.
func exited(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	// The state follows the command name in parentheses: "pid (comm) S ...".
	i := bytes.LastIndexByte(b, ')')
	return i < 0 || i+2 >= len(b) || b[i+2] == 'Z' || b[i+2] == 'X'
}

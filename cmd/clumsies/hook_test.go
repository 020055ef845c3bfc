package main_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/clumsies/clumsies/agent/adapt"
	"github.com/clumsies/clumsies/internal/testbin"
)

// runHook runs `clumsies hook EVENT --host HOST` in dir with stdin, as a
// host does.
func runHook(tb testing.TB, dir, host string, ev adapt.Event, stdin []byte, env ...string) result {
	tb.Helper()
	r, err := hookRun(dir, host, ev, stdin, env...)
	if err != nil {
		tb.Fatalf("run clumsies hook: %v", err)
	}
	return r
}

// hookRun is runHook for any goroutine: it returns the error of a run that
// could not happen. env is added to the environment.
func hookRun(dir, host string, ev adapt.Event, stdin []byte, env ...string) (result, error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, "hook", string(ev), "--host", host)
	cmd.Dir = dir
	cmd.Env = append(hookEnv(), env...)
	cmd.Stdin = bytes.NewReader(stdin)
	out, errs, code, err := testbin.Run(cmd)
	if err != nil {
		return result{}, err
	}
	return result{out, errs, code}, nil
}

// hookEnv is the test's environment without the hosts' project variables,
// so that only the input decides the workspace.
func hookEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "CLAUDE_PROJECT_DIR=") && !strings.HasPrefix(kv, "GEMINI_PROJECT_DIR=") {
			env = append(env, kv)
		}
	}
	return env
}

// claudeInput is Claude Code's hook input for ev in session id, working in dir.
func claudeInput(tb testing.TB, ev adapt.Event, id, dir string, stopActive bool) []byte {
	tb.Helper()
	in := map[string]any{"session_id": id, "transcript_path": filepath.Join(dir, id+".jsonl"), "cwd": dir}
	switch ev {
	case adapt.SessionStart:
		in["hook_event_name"], in["source"], in["model"] = "SessionStart", "startup", "claude-sonnet-4-5"
	case adapt.UserPrompt:
		in["hook_event_name"], in["prompt"], in["permission_mode"] = "UserPromptSubmit", "Add a retry to the payment client", "default"
	case adapt.Stop:
		in["hook_event_name"], in["stop_hook_active"] = "Stop", stopActive
	}
	b, err := json.Marshal(in)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

var announced = regexp.MustCompile(`memsetup with session_id "([^"]+)"(?: and session_secret "([^"]+)")?`)

// hookSession plays Claude Code for one session: the session-start hook,
// then memsetup over MCP with the id and secret the hook announced (connect),
// then a prompt. It returns the session id the agent read from its context.
func hookSession(t *testing.T, dir, hostID string, connect func(id, secret string)) string {
	t.Helper()
	r := runHook(t, dir, "claude-code", adapt.SessionStart, claudeInput(t, adapt.SessionStart, hostID, dir, false))
	var out struct {
		HookSpecificOutput struct {
			HookEventName, AdditionalContext string
		}
	}
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &out) != nil || out.HookSpecificOutput.HookEventName != "SessionStart" {
		t.Fatalf("session-start hook: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	m := announced.FindStringSubmatch(out.HookSpecificOutput.AdditionalContext)
	if m == nil || m[1] != hostID || m[2] == "" {
		t.Fatalf("session-start context %q does not hand the agent its id %s and a secret", out.HookSpecificOutput.AdditionalContext, hostID)
	}
	connect(m[1], m[2])
	if r := runHook(t, dir, "claude-code", adapt.UserPrompt, claudeInput(t, adapt.UserPrompt, m[1], dir, false)); r.code != 0 || r.stdout != "" {
		t.Fatalf("user-prompt hook: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	return m[1]
}

// secretShown stands for the random session secret of a session-start
// hook's answer (withoutSecrets).
const secretShown = "css-00000000000000000000000000000000"

var secretRE = regexp.MustCompile(`css-[0-9a-f]{32}`)

// withoutSecrets returns a hook's answer with its session secrets
// replaced by secretShown.
func withoutSecrets(s string) string { return secretRE.ReplaceAllString(s, secretShown) }

// stopHook runs the stop hook and reports whether it blocked.
func stopHook(t *testing.T, dir, id string, active bool) bool {
	t.Helper()
	r := runHook(t, dir, "claude-code", adapt.Stop, claudeInput(t, adapt.Stop, id, dir, active))
	if r.code != 0 {
		t.Fatalf("stop hook: exit %d, stderr %q", r.code, r.stderr)
	}
	if r.stdout == "" {
		return false
	}
	var out struct{ Decision, Reason string }
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil || out.Decision != "block" || !strings.Contains(out.Reason, "agentreport") {
		t.Fatalf("stop hook: got %q, want Claude Code's block form naming agentreport", r.stdout)
	}
	return true
}

// complianceOf reads the compliance of session id from `stats --json`.
// Stats read the projections, which apply evidence-only events (memsetup,
// agentreport) shortly after answering: it waits until the session shows
// calls and hooks as many events as want.
func complianceOf(t *testing.T, dir, id string, events float64) map[string]any {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		var st struct {
			Compliance struct {
				Sessions []map[string]any
			}
			SessionList []map[string]any
		}
		if err := json.Unmarshal([]byte(mustRun(t, dir, "stats", "--json")), &st); err != nil {
			t.Fatal(err)
		}
		seen := 0.0
		for _, s := range st.SessionList {
			if s["id"] == id {
				seen = s["calls"].(float64) + s["hooks"].(float64)
			}
		}
		for _, s := range st.Compliance.Sessions {
			if s["id"] == id && seen >= events {
				return s
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("stats --json has no compliance for session %s with %v events", id, events)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestHook_ClaudeCodeSession plays Claude Code exactly against the built
// binary, with `clumsies serve` owning the workspace: hooks reach it through
// its socket, the agent's calls go over MCP stdio.
func TestHook_ClaudeCodeSession(t *testing.T) {
	dir := newWorkspace(t)
	_, cl := serve(t, dir)

	t.Run("Reports", func(t *testing.T) {
		id := hookSession(t, dir, "8a1f3c2e-5b7d-4e21-9c0a-2f6b1d3e4a5c", func(id, secret string) { setupWith(t, cl, id, secret) })
		if !stopHook(t, dir, id, false) {
			t.Fatal("stop with an unreported prompt was allowed")
		}
		call(t, cl, "agentreport", map[string]any{"summary": "added a retry with backoff"})
		if stopHook(t, dir, id, true) || stopHook(t, dir, id, false) {
			t.Fatal("stop after the report was blocked")
		}
		c := complianceOf(t, dir, id, 5) // start, setup, prompt, block, report
		if c["compliant"] != true || c["prompts"] != 1.0 || c["answered"] != 1.0 || c["stopsBlocked"] != 1.0 || c["host"] != "claude-code" {
			t.Fatalf("compliance: got %v, want a compliant session with 1 prompt answered and 1 stop blocked", c)
		}
	})

	t.Run("NeverReports", func(t *testing.T) {
		_, cl2 := serve(t, dir) // a second agent, through the owner
		id := hookSession(t, dir, "mute-session", func(id, secret string) { setupWith(t, cl2, id, secret) })
		// Claude Code's own loop guard lets it go at once.
		if stopHook(t, dir, id, true) {
			t.Fatal("stop with stop_hook_active was blocked")
		}
		// A host that sets no loop guard: blocked twice, then let go.
		for i := 1; i <= 2; i++ {
			if !stopHook(t, dir, id, false) {
				t.Fatalf("stop %d in a row was not blocked", i)
			}
		}
		if stopHook(t, dir, id, false) {
			t.Fatal("the third stop in a row was blocked; the hook must let the agent go")
		}
		c := complianceOf(t, dir, id, 5) // start, setup, prompt, 2 blocks
		if c["compliant"] != false || c["prompts"] != 1.0 || c["answered"] != 0.0 || c["stopsBlocked"] != 2.0 {
			t.Fatalf("compliance: got %v, want an unanswered prompt and 2 stops blocked", c)
		}
	})

	t.Run("InventedID", func(t *testing.T) {
		_, cl3 := serve(t, dir)
		setup(t, cl3, "made-up-id")
		if c := complianceOf(t, dir, "made-up-id", 1); c["inventedId"] != true || c["compliant"] != false {
			t.Fatalf("compliance: got %v, want the invented id flagged", c)
		}
		out := mustRun(t, dir, "stats")
		if !strings.Contains(out, "invented id") || !strings.Contains(out, "unreported prompts") {
			t.Fatalf("stats does not flag the sessions:\n%s", out)
		}
		// The compliance rows are what a replay of the ledger gives.
		mustRun(t, dir, "verify")
	})
}

// TestHook_Hosts runs every host's recorded hook inputs through the binary,
// with no owner running (each hook owns the workspace briefly), and checks
// that the answers are the host's forms and the events are in the ledger.
func TestHook_Hosts(t *testing.T) {
	dir := newWorkspace(t)
	counts := map[adapt.Event]int{}
	for _, h := range adapt.Hosts() {
		if len(h.Events()) == 0 {
			continue // a host adapt wires no hook for
		}
		input := func(ev adapt.Event) []byte {
			b, err := os.ReadFile(filepath.Join("..", "..", "agent", "adapt", "testdata", h.Name, string(ev)+".json"))
			if err != nil {
				t.Fatal(err)
			}
			return bytes.ReplaceAll(b, []byte("/home/ana/shop"), []byte(dir))
		}
		in, err := h.Read(adapt.Stop, input(adapt.Stop))
		if err != nil {
			t.Fatal(err)
		}
		want := map[adapt.Event]string{
			adapt.SessionStart: string(h.Answer(adapt.SessionStart, adapt.Answer{Context: adapt.SetupContext(in.SessionID, secretShown)})),
			adapt.UserPrompt:   string(h.Answer(adapt.UserPrompt, adapt.Answer{})),
			adapt.Stop:         string(h.Answer(adapt.Stop, adapt.Answer{Block: true, Reason: adapt.StopReason(in.SessionID)})),
		}
		for _, ev := range h.Events() {
			counts[ev]++
			if r := runHook(t, dir, h.Name, ev, input(ev)); r.code != 0 || withoutSecrets(r.stdout) != want[ev] {
				t.Errorf("%s %s: exit %d, stdout %q, stderr %q; want stdout %q", h.Name, ev, r.code, r.stdout, r.stderr, want[ev])
			}
		}
	}
	for typ, n := range map[string]int{"attest.session_start": counts[adapt.SessionStart], "attest.user_prompt": counts[adapt.UserPrompt], "attest.stop_blocked": counts[adapt.Stop]} {
		if got := len(eventLines(t, dir, "--type", typ)); got != n {
			t.Errorf("%s: got %d events, want %d", typ, got, n)
		}
	}
	// Prompts are hashed, not kept, unless the workspace opts in.
	for _, ev := range eventLines(t, dir, "--type", "attest.user_prompt") {
		data := ev["data"].(map[string]any)
		if _, ok := data["text"]; ok || !strings.HasPrefix(data["sha256"].(string), "sha256:") || data["length"] != 33.0 {
			t.Fatalf("user prompt event %v: want hash and length, no text", data)
		}
	}
	cfg := filepath.Join(dir, ".clumsies", "config.toml")
	b, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, bytes.Replace(b, []byte("record_prompts = false"), []byte("record_prompts = true"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	runHook(t, dir, "codex", adapt.UserPrompt, bytes.ReplaceAll(mustRead(t, "../../agent/adapt/testdata/codex/user-prompt.json"), []byte("/home/ana/shop"), []byte(dir)))
	evs := eventLines(t, dir, "--type", "attest.user_prompt")
	if data := evs[len(evs)-1]["data"].(map[string]any); data["text"] != "Add a retry to the payment client" {
		t.Fatalf("with record_prompts = true got %v, want the text kept", data)
	}
}

func mustRead(tb testing.TB, path string) []byte {
	tb.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// TestHook_FailsOpen: whatever goes wrong, the hook exits 0, prints only
// the host's neutral answer and says why on stderr.
func TestHook_FailsOpen(t *testing.T) {
	nowhere := t.TempDir()
	for _, h := range adapt.Hosts() {
		for _, ev := range h.Events() {
			in := claudeInput(t, ev, "s-1", nowhere, false)
			in = bytes.Replace(in, []byte(`"session_id"`), []byte(`"conversation_id":"s-1","session_id"`), 1)
			r := runHook(t, nowhere, h.Name, ev, in)
			want := h.Answer(ev, adapt.Answer{})
			if ev == adapt.SessionStart {
				want = h.Answer(ev, adapt.Answer{Context: adapt.SetupContext("s-1", secretShown)})
			}
			if r.code != 0 || withoutSecrets(r.stdout) != string(want) || !strings.Contains(r.stderr, "clumsies init") {
				t.Errorf("%s %s without a workspace: exit %d, stdout %q, stderr %q", h.Name, ev, r.code, r.stdout, r.stderr)
			}
		}
	}

	dir := newWorkspace(t)
	for _, garbage := range []string{"", "not json", `{"session_id": 7}`, `{"cwd": "/tmp"}`} {
		r := runHook(t, dir, "claude-code", adapt.Stop, []byte(garbage))
		if r.code != 0 || r.stdout != "" || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 || r.stderr == "" {
			t.Errorf("stdin %q: exit %d, stdout %q, stderr %q; want exit 0, no answer, one line", garbage, r.code, r.stdout, r.stderr)
		}
	}
	if r := runHook(t, dir, "claude-code", adapt.Event("bogus"), nil); r.code == 0 || r.code == 2 || r.stdout != "" {
		t.Errorf("unknown event: exit %d, stdout %q; want a failure other than 2 (which blocks a stop)", r.code, r.stdout)
	}

	t.Run("DeadOwner", func(t *testing.T) {
		dir := newWorkspace(t)
		cmd, cl := serve(t, dir)
		setup(t, cl, "owner-alive")
		if err := cmd.Process.Signal(syscall.SIGSTOP); err != nil {
			t.Fatal(err)
		}
		defer cmd.Process.Signal(syscall.SIGCONT)
		r := runHook(t, dir, "claude-code", adapt.UserPrompt, claudeInput(t, adapt.UserPrompt, "s-2", dir, false))
		if r.code != 0 || r.stdout != "" || !strings.Contains(r.stderr, "the agent goes on") {
			t.Errorf("owner stopped: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
		}
		r = runHook(t, dir, "claude-code", adapt.Stop, claudeInput(t, adapt.Stop, "s-2", dir, false))
		if r.code != 0 || r.stdout != "" {
			t.Errorf("stop with the owner stopped: exit %d, stdout %q; want it allowed", r.code, r.stdout)
		}
	})
}

// TestHook_Concurrent starts hooks at once on a workspace nobody owns, as
// hosts do when several sessions send prompts together (and as Claude Code
// does when it starts `serve` and the session-start hook together): one
// owns the workspace for its append, the others go through it or take over,
// and every prompt is recorded once, none failing open.
func TestHook_Concurrent(t *testing.T) {
	dir := newWorkspace(t)
	const n = 6
	results := make(chan result, n)
	for i := 0; i < n; i++ {
		in := claudeInput(t, adapt.UserPrompt, "concurrent-"+string(rune('a'+i)), dir, false)
		go func() {
			r, err := hookRun(dir, "claude-code", adapt.UserPrompt, in)
			if err != nil {
				r = result{stderr: err.Error(), code: -1}
			}
			results <- r
		}()
	}
	_, cl := serve(t, dir) // and an agent's server starting meanwhile
	setup(t, cl, "concurrent-server")
	for i := 0; i < n; i++ {
		if r := <-results; r.code != 0 || r.stdout != "" || r.stderr != "" {
			t.Errorf("hook: exit %d, stdout %q, stderr %q; want a clean append", r.code, r.stdout, r.stderr)
		}
	}
	if got := len(eventLines(t, dir, "--type", "attest.user_prompt")); got != n {
		t.Errorf("got %d prompt events, want %d", got, n)
	}
}

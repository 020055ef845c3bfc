package main_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/clumsies/clumsies/agent/adapt"
	"github.com/clumsies/clumsies/internal/testbin"
)

// copilotRuns maps the hook events of Copilot CLI's captured inputs to the
// command adapt wired for them: its own (camelCase) and Claude Code's,
// which Copilot runs too.
var copilotRuns = map[string]struct {
	host string
	ev   adapt.Event
}{
	"sessionStart": {"copilot", adapt.SessionStart}, "SessionStart": {"claude-code", adapt.SessionStart},
	"userPromptSubmitted": {"copilot", adapt.UserPrompt}, "UserPromptSubmit": {"claude-code", adapt.UserPrompt},
	"agentStop": {"copilot", adapt.Stop}, "Stop": {"claude-code", adapt.Stop},
}

// copilotHook runs the hook command adapt wired for the captured Copilot
// CLI input name (NN-event), as Copilot does: in dir, with COPILOT_CLI=1
// and HOME set to home.
func copilotHook(t *testing.T, dir, home, name, id string) result {
	t.Helper()
	run, ok := copilotRuns[name[strings.Index(name, "-")+1:]]
	if !ok {
		t.Fatalf("no hook for %s", name)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, "hook", string(run.ev), "--host", run.host)
	cmd.Dir = dir
	cmd.Env = append(hookEnv(), "COPILOT_CLI=1", "HOME="+home)
	cmd.Stdin = bytes.NewReader(captured(t, "copilot", name, dir, id))
	out, errs, code, err := testbin.Run(cmd)
	if err != nil {
		t.Fatal(err)
	}
	if code != 0 {
		t.Fatalf("%s: exit %d, stderr %q", name, code, errs)
	}
	return result{out, errs, code}
}

// copilotContext returns the session id that a session-start answer
// hands the agent in Copilot CLI's form (a top-level additionalContext,
// the only one it reads), or "".
func copilotContext(t *testing.T, r result) string {
	t.Helper()
	var out struct{ AdditionalContext string }
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatalf("session-start answer %q: %v", r.stdout, err)
	}
	if m := announced.FindStringSubmatch(out.AdditionalContext); m != nil {
		return m[1]
	}
	return ""
}

// TestHook_CopilotRunsClaudeCodeHooks plays Copilot CLI's captured turn
// (the stop blocked once, its reason sent back as a prompt, the agent
// reporting) against the built binary with an owner running. Copilot runs
// Claude Code's hooks as well as its own: a session is recorded once, as
// copilot, and the agent gets its id in the form Copilot reads.
func TestHook_CopilotRunsClaudeCodeHooks(t *testing.T) {
	t.Run("WiredForBoth", func(t *testing.T) {
		dir, home := newWorkspace(t), t.TempDir()
		for _, h := range []string{"claude-code", "copilot"} {
			if r := runIn(t, dir, home, "adapt", h); r.code != 0 {
				t.Fatalf("adapt %s: exit %d, stderr %q", h, r.code, r.stderr)
			}
		}
		_, cl := serve(t, dir)
		id := "copilot-both"
		hook := func(name string) result { return copilotHook(t, dir, home, name, id) }
		start := hook("01-sessionStart")
		if got := copilotContext(t, start); got != id {
			t.Fatalf("sessionStart hands the agent %q, want %q", got, id)
		}
		silent := func(name string) {
			t.Helper()
			if r := hook(name); r.stdout != "" || r.stderr != "" {
				t.Fatalf("%s (Claude Code's hook under Copilot, whose own hooks are wired): stdout %q, stderr %q; want silence", name, r.stdout, r.stderr)
			}
		}
		silent("02-SessionStart")
		setupWith(t, cl, id, secretRE.FindString(start.stdout))
		hook("03-userPromptSubmitted")
		silent("04-UserPromptSubmit")
		if !blocked(t, hook("05-agentStop")) {
			t.Fatal("agentStop with an unreported prompt was allowed")
		}
		silent("06-Stop")
		hook("07-userPromptSubmitted") // the reason, sent back
		silent("08-UserPromptSubmit")
		call(t, cl, "agentreport", map[string]any{"summary": "said hi"})
		if blocked(t, hook("09-agentStop")) {
			t.Fatal("agentStop after the report was blocked")
		}
		silent("10-Stop")
		c := complianceOf(t, dir, id, 5) // start, setup, prompt, block, report
		if c["host"] != "copilot" || c["hookStarts"] != 1.0 || c["prompts"] != 1.0 || c["stopsBlocked"] != 1.0 || c["compliant"] != true {
			t.Fatalf("compliance: got %v, want one copilot session, one prompt answered, one stop blocked", c)
		}
	})

	t.Run("ClaudeCodeHooksOnly", func(t *testing.T) {
		dir, home := newWorkspace(t), t.TempDir()
		if r := runIn(t, dir, home, "adapt", "claude-code"); r.code != 0 {
			t.Fatalf("adapt claude-code: exit %d, stderr %q", r.code, r.stderr)
		}
		_, cl := serve(t, dir)
		id := "copilot-claude-hooks"
		hook := func(name string) result { return copilotHook(t, dir, home, name, id) }
		start := hook("02-SessionStart")
		if got := copilotContext(t, start); got != id {
			t.Fatalf("SessionStart under Copilot hands the agent %q, want %q", got, id)
		}
		setupWith(t, cl, id, secretRE.FindString(start.stdout))
		hook("04-UserPromptSubmit")
		if !blocked(t, hook("06-Stop")) {
			t.Fatal("Stop with an unreported prompt was allowed")
		}
		hook("08-UserPromptSubmit")
		call(t, cl, "agentreport", map[string]any{"summary": "said hi"})
		if blocked(t, hook("10-Stop")) {
			t.Fatal("Stop after the report was blocked")
		}
		c := complianceOf(t, dir, id, 5)
		if c["host"] != "copilot" || c["prompts"] != 1.0 || c["stopsBlocked"] != 1.0 || c["compliant"] != true {
			t.Fatalf("compliance: got %v, want a compliant copilot session with one prompt", c)
		}
	})
}

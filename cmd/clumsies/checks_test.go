package main_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clumsies/clumsies/agent/adapt"
	"github.com/clumsies/clumsies/mcp"
)

// checkedRuleBody is a rule over api/** whose check forbids a bare 500
// (constraint Errors/2).
const checkedRuleBody = "---\npaths: [\"api/**\"]\nchecks:\n  - constraint: \"Errors/2\"\n    forbid: 'StatusInternalServerError'\n" +
	"    message: \"never return a bare 500\"\n---\n# Handlers\n\nHow handlers answer.\n\n## Errors\n\n- Map errors once.\n- Never a bare 500.\n"

const badHandler = "package api\n\nfunc h(w http.ResponseWriter) {\n\tw.WriteHeader(http.StatusInternalServerError)\n}\n"

// checkSession is one agent of TestChecks_EndToEnd: its MCP client, its
// session id, and the workspace.
type checkSession struct {
	t   *testing.T
	dir string
	cl  *mcp.Client
	id  string
}

// writeAndPost writes body to rel and runs Claude Code's post-tool hook
// of a Write of it, returning the context the hook gave the agent.
func (s checkSession) writeAndPost(rel, body string) string {
	s.t.Helper()
	p := filepath.Join(s.dir, filepath.FromSlash(rel))
	writeFile(s.t, p, body)
	in, _ := json.Marshal(map[string]any{"session_id": s.id, "cwd": s.dir, "hook_event_name": "PostToolUse", "tool_name": "Write",
		"tool_input": map[string]any{"file_path": p, "content": body}, "tool_use_id": "toolu_" + s.id})
	r := runHook(s.t, s.dir, "claude-code", adapt.PostTool, in)
	if r.code != 0 || r.stderr != "" {
		s.t.Fatalf("post-tool hook: exit %d, stderr %q", r.code, r.stderr)
	}
	if r.stdout == "" {
		return ""
	}
	var out struct {
		HookSpecificOutput struct{ HookEventName, AdditionalContext string }
	}
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil || out.HookSpecificOutput.HookEventName != "PostToolUse" {
		s.t.Fatalf("post-tool hook printed %q, want Claude Code's PostToolUse context", r.stdout)
	}
	return out.HookSpecificOutput.AdditionalContext
}

// stop runs the stop hook and returns the reason it refused the stop
// with, or "" when it let the agent go.
func (s checkSession) stop() string {
	s.t.Helper()
	why, note := s.stopNote()
	if note != "" {
		s.t.Fatalf("stop hook: stderr %q", note)
	}
	return why
}

// stopNote is stop, with the note the hook gave the user on stderr
// (when it let an agent go after the bound).
func (s checkSession) stopNote() (string, string) {
	s.t.Helper()
	r := runHook(s.t, s.dir, "claude-code", adapt.Stop, claudeInput(s.t, adapt.Stop, s.id, s.dir, false))
	if r.code != 0 {
		s.t.Fatalf("stop hook: exit %d, stderr %q", r.code, r.stderr)
	}
	if r.stdout == "" {
		return "", r.stderr
	}
	var out struct{ Decision, Reason string }
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil || out.Decision != "block" {
		s.t.Fatalf("stop hook printed %q, want Claude Code's block", r.stdout)
	}
	return out.Reason, r.stderr
}

// TestChecks_EndToEnd plays three Claude Code sessions against the built
// binary, with `clumsies serve` owning a workspace in block mode whose rule
// declares a pattern check: the hooks run the check on what each writes.
// One session loads the rule, writes a bare 500, is told after the tool,
// is held at stop (naming file, line, constraint and message), fixes it
// and may stop. One loads it, writes the same, and closes the turn with
// agentrejected and a reason: it may stop, the finding on record as
// rejected. One never loads the rule and never fixes its finding: held
// until the bound lets it go. `stats --json` and `stats` show the figures.
func TestChecks_EndToEnd(t *testing.T) {
	dir := newWorkspace(t)
	rule := filepath.Join(dir, ".clumsies", "rules", "api", "HANDLERS.md")
	writeFile(t, rule, checkedRuleBody)
	setEnforce(t, dir, "block")
	_, cl := serve(t, dir)
	ruleKnown := func(cl *mcp.Client) map[string]any {
		id := ruleID(t, cl, "api/HANDLERS.md")
		return map[string]any{"ids": []string{id}, "knownHashes": map[string]string{id: ""}}
	}
	start := func(host string, c *mcp.Client) checkSession {
		id := hookSession(t, dir, host, func(id, secret string) { setupWith(t, c, id, secret) })
		return checkSession{t: t, dir: dir, cl: c, id: id}
	}

	// Fixes it.
	fixer := start("chk-fixer", cl)
	loaded := call(t, cl, "memload", ruleKnown(cl))
	if b, _ := json.Marshal(loaded["items"]); !strings.Contains(string(b), `"checks":[{"constraint":"Errors/2","kind":"forbid","message":"never return a bare 500","pattern":"StatusInternalServerError"}]`) {
		t.Fatalf("memload does not show the rule's check: %s", b)
	}
	told := fixer.writeAndPost("api/h.go", badHandler)
	finding := "api/h.go:4 Errors/2 (api/HANDLERS.md): never return a bare 500"
	if !strings.Contains(told, finding) {
		t.Fatalf("after the tool the agent was told %q, want %q", told, finding)
	}
	call(t, cl, "agentreport", map[string]any{"summary": "added the handler"})
	if why := fixer.stop(); !strings.Contains(why, finding) || !strings.Contains(why, "agentrejected") {
		t.Fatalf("stop with the finding standing: reason %q, want the finding and the way out", why)
	}
	if told := fixer.writeAndPost("api/h.go", strings.Replace(badHandler, "w.WriteHeader(http.StatusInternalServerError)", "writeError(w, errInternal)", 1)); told != "" {
		t.Fatalf("the fix was told %q", told)
	}
	if why := fixer.stop(); why != "" {
		t.Fatalf("stop after the fix was refused: %s", why)
	}

	// Rejects it with a reason.
	_, cl2 := serve(t, dir)
	rejecter := start("chk-rejecter", cl2)
	call(t, cl2, "memload", ruleKnown(cl2))
	rejecter.writeAndPost("api/health.go", badHandler)
	if why := rejecter.stop(); !strings.Contains(why, "api/health.go:4 Errors/2") {
		t.Fatalf("stop with the finding standing: reason %q", why)
	}
	call(t, cl2, "agentrejected", map[string]any{"reason": "the user wants a bare 500 on the health check"})
	if why := rejecter.stop(); why != "" {
		t.Fatalf("stop after agentrejected with a reason was refused: %s", why)
	}

	// Never loads it, never fixes it.
	_, cl3 := serve(t, dir)
	stubborn := start("chk-stubborn", cl3)
	stubborn.writeAndPost("api/x.go", badHandler)
	call(t, cl3, "agentreport", map[string]any{"summary": "done"})
	for i := range 2 {
		if why := stubborn.stop(); !strings.Contains(why, "api/x.go:4 Errors/2") || !strings.Contains(why, "memload") {
			t.Fatalf("stop %d: reason %q, want the finding and the rule to load", i+1, why)
		}
	}
	if why, note := stubborn.stopNote(); why != "" || !strings.Contains(note, "with findings of the rules' checks standing") {
		t.Fatalf("the third stop in a row: refused %q, note %q; want it let go, the user told why", why, note)
	}

	// What the ledger holds: the findings with the match's hash, never the
	// text.
	for _, ev := range eventLines(t, dir, "--type", "attest.check") {
		if b, _ := json.Marshal(ev["data"]); strings.Contains(string(b), "StatusInternalServerError") {
			t.Fatalf("attest.check holds the matched text: %s", b)
		}
	}

	var got struct {
		Checks []struct {
			ID       string
			Sessions int
			Loaded   struct {
				Of, Count int
				Note      string
			}
			Unloaded    struct{ Of, Count int }
			Constraints []struct {
				ID                           string
				Found, Fixed, Rejected, Open int
			}
		}
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		if err := json.Unmarshal([]byte(mustRun(t, dir, "stats", "--json")), &got); err != nil {
			t.Fatal(err)
		}
		if len(got.Checks) == 1 && got.Checks[0].Sessions == 3 && len(got.Checks[0].Constraints) == 1 && got.Checks[0].Constraints[0].Open == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("stats --json checks: %+v", got.Checks)
		}
		time.Sleep(50 * time.Millisecond)
	}
	r := got.Checks[0]
	c := r.Constraints[0]
	if r.Loaded.Of != 2 || r.Loaded.Count != 2 || r.Loaded.Note == "" || r.Unloaded.Of != 1 || r.Unloaded.Count != 1 ||
		c.ID != "Errors/2" || c.Found != 3 || c.Fixed != 1 || c.Rejected != 1 || c.Open != 1 {
		t.Fatalf("stats --json checks: %+v", r)
	}
	if out := mustRun(t, dir, "stats"); !strings.Contains(out, "Checks:") || !strings.Contains(out, "2/2 (too few sessions to tell)") {
		t.Fatalf("stats does not show the checks:\n%s", out)
	}
	checkChecksPage(t, dir, r.ID)
}

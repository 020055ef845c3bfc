package hosts

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/internal/testbin"
)

// workingDir finds the working folder Claude Code names in an agent's
// system prompt ("Primary working directory: " for the main agent,
// "Working directory: " for a subagent; with worktree isolation, its
// worktree).
var workingDir = regexp.MustCompile(`(?:Primary working|Working) directory: ([^\s\\"]+)`)

// git runs git in the workspace, failing t on an error.
func (p *project) git(t *testing.T, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=clumsies test", "-c", "user.email=test@clumsies.invalid"}, args...)...)
	cmd.Dir, cmd.Env = p.dir, p.env
	out, errs, code, err := testbin.Run(cmd)
	if err != nil || code != 0 {
		t.Fatalf("git %s: exit %d, %v\n%s%s", strings.Join(args, " "), code, err, out, errs)
	}
}

// TestGateClaudeCodeSubagentWorktree has the scripted agent start a
// subagent with the Agent tool and isolation "worktree": Claude Code makes
// a linked git worktree under .claude/worktrees/ and runs the subagent
// there, its hooks with the worktree as their folder. The subagent makes
// the gate scenario's writes in the worktree, each of which must be denied
// with the main workspace's rules and recorded in its ledger naming the
// worktree.
func TestGateClaudeCodeSubagentWorktree(t *testing.T) {
	requireEnabled(t)
	bin := install(t, claudeCode)
	m := startModel(t, anthropicAPI)
	g := newGateProject(t, "claude-code")
	// The rule stays out of the commit, so out of the worktree: only the
	// main workspace's catalog has it.
	g.git(t, "init", "-q", "-b", "main")
	g.git(t, "add", "-A")
	g.git(t, "rm", "-q", "--cached", filepath.ToSlash(filepath.Join(".clumsies", "rules", gateRule)))
	g.git(t, "commit", "-q", "-m", "the workspace")
	ws := deniedWrites("claude-code-subagent")
	// The subagent's calls name files in its worktree, which it learns
	// from its system prompt.
	in := func(rel string) func(conversation) string {
		return func(c conversation) string {
			if m := workingDir.FindStringSubmatch(c.body); m != nil {
				return filepath.Join(m[1], filepath.FromSlash(rel))
			}
			return filepath.Join("/no-working-directory-in-the-system-prompt", filepath.FromSlash(rel))
		}
	}
	var sub []planned
	at := make([]int, len(ws))
	for i, w := range ws {
		path := in(w.path)
		from, to := "func Handle() {}", "func Handle() { /* "+w.mark+" */ }"
		if w.protected {
			from, to = `mode = "block"`, `mode = "off" # `+w.mark
		}
		if w.shell {
			sub = append(sub, planned{tool: "Bash", args: fixed(map[string]any{"command": "echo '" + w.mark + "' >> " + w.path, "description": "Append a line"})})
		} else {
			sub = append(sub,
				planned{tool: "Read", args: func(c conversation) map[string]any { return map[string]any{"file_path": path(c)} }},
				planned{tool: "Edit", args: func(c conversation) map[string]any {
					return map[string]any{"file_path": path(c), "old_string": from, "new_string": to}
				}})
		}
		at[i] = len(sub) - 1
	}
	m.setPlan([]planned{{tool: "Agent", args: fixed(map[string]any{
		"description":   "Change the API handler",
		"prompt":        subMarker + " append to src/api/x.go, change src/api/handler.go and .clumsies/config.toml.",
		"subagent_type": "general-purpose",
		"isolation":     "worktree",
	})}}, sub)
	runClaudeCode(t, g.project, m, bin, "mcp__clumsies,Agent,Read,Edit,Write,Bash")

	id, calls, _ := m.seen()
	_, results := m.planResults()
	evs := g.ledger(t)
	gates := typed[events.ToolGatedData](t, evs, id, events.TypeToolGated)
	t.Logf("the gate's events of session %q: %+v", id, gates)
	if !slices.Contains(calls, "Agent") {
		t.Fatalf("the main agent did not call Agent: %v", calls)
	}
	for i, w := range ws {
		t.Run(w.name, func(t *testing.T) {
			if at[i] >= len(results) || !strings.Contains(results[at[i]], gateDenied) {
				t.Errorf("the subagent did not read the gate's denial (%q) after the %s write; it read %q (the model's calls: %v)",
					gateDenied, w.path, results[at[i]], calls)
			}
			// The main working tree is untouched whatever happened.
			checkUnchanged(t, g.abs(w.path), g.files[w.path], w.mark)
			denials := naming(gates, gatedPaths, w.path)
			if len(denials) != 1 {
				t.Fatalf("%d %s events of session %q name %s, want 1 (the subagent's, in its worktree): %+v", len(denials), events.TypeToolGated, id, w.path, denials)
			}
			d := denials[0]
			if d.Decision != events.GateDeny || d.Shell != w.viaShell || !strings.HasPrefix(d.Worktree, ".claude/worktrees/") {
				t.Errorf("the %s event of %s: decision %q, shell %v, worktree %q; want deny, shell %v, a worktree under .claude/worktrees/",
					events.TypeToolGated, w.path, d.Decision, d.Shell, d.Worktree, w.viaShell)
			}
			if !w.protected && len(d.Missing) != 1 {
				t.Errorf("the denial of %s names missing rules %q, want the one rule of %s of the main workspace", w.path, d.Missing, gateRule)
			}
			// Claude Code removes a worktree in which nothing changed;
			// where it is kept, the file there is as committed.
			if d.Worktree != "" {
				if _, err := os.Stat(g.abs(d.Worktree)); err == nil {
					checkUnchanged(t, filepath.Join(g.abs(d.Worktree), filepath.FromSlash(w.path)), g.files[w.path], w.mark)
				}
			}
		})
	}
	for _, e := range typed[events.FileEditData](t, evs, id, events.TypeFileEdit) {
		t.Errorf("an %s event of session %q, though every write was refused: %+v", events.TypeFileEdit, id, e)
	}
	t.Run("Stats", func(t *testing.T) {
		var rule string
		for _, d := range gates {
			if len(d.Missing) == 1 {
				rule = d.Missing[0]
			}
		}
		st, r, ok := g.readGateStats(t, rule)
		if want := (gateFigures{Denials: 3, ProtectedGated: 1}); st.Evidence.Edits != 0 || st.Evidence.gateFigures != want {
			t.Errorf("stats --json shows %d edits and the gates' figures %+v; want none and %+v", st.Evidence.Edits, st.Evidence.gateFigures, want)
		}
		if want := (ruleFigures{ID: rule, Denials: 2}); ok && r != want {
			t.Errorf("stats --json shows the rule as %+v, want %+v", r, want)
		}
	})
	g.checkTurn(t, m, "claude-code")
}

package hosts

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/events"
)

// The gate's scenarios (docs/rules.md, "The gate"): a workspace in block
// mode with a rule on src/api/** that the scripted agent never loads. After
// memsetup and memdisc the agent, through the host's own tools, appends to
// an in-scope file with a shell command, modifies an existing in-scope file
// with the host's edit tool, and edits .clumsies/config.toml to turn the
// gate off, each write with text of its own; then it ends its turn, and
// reports when the stop hook asks. Each write must be refused (the file as
// it was) and recorded as an attest.tool_gated deny; a shell write a host
// cannot refuse must be caught by the stop gate.
const (
	gateRule     = "src/api/API.md" // under .clumsies/rules
	gateRuleText = "---\npaths:\n  - \"src/api/**\"\n---\n# API\n\nHow the API package is written.\n\n" +
		"## Handlers\n\n- A handler returns wrapped errors.\n"
	shellFile  = "src/api/x.go"
	modFile    = "src/api/handler.go"
	configFile = ".clumsies/config.toml"
	// gateDenied is a phrase of every denial the gate gives (hooks'
	// gateMessage).
	gateDenied = "This change was not made."
)

// gateWrite is one write of the scenario.
type gateWrite struct {
	name string // the subtest's
	path string // workspace-relative
	// mark is text that only this write would put in the file.
	mark string
	// shell is set for the write made with the host's shell tool.
	shell bool
	// viaShell is set when the host hands its hooks the write as a shell
	// command (attest.tool_gated's shell): the shell write, and on Codex
	// every write.
	viaShell bool
	// protected is set for a write of the enforcement's own files.
	protected bool
}

// gateWrites are the scenario's writes for host, each with its own text.
func gateWrites(host string) []gateWrite {
	return []gateWrite{
		{name: "ShellWriteDenied", path: shellFile, mark: "clumsies-shell-write-" + host, shell: true, viaShell: true},
		{name: "ModifyToolDenied", path: modFile, mark: "clumsies-modify-" + host},
		{name: "ConfigEditDenied", path: configFile, mark: "clumsies-config-" + host, protected: true},
	}
}

// hostTools makes a host's own tool calls for the scenario.
type hostTools struct {
	// read reads the file at the absolute path, for a host whose edit
	// tool refuses a file not read first (nil when it has none).
	read func(abs string) planned
	// shell runs the command line in the host's folder.
	shell func(command string) planned
	// modify replaces old by new in the file (abs, and rel to the
	// workspace).
	modify func(abs, rel, old, new string) planned
}

// gateProject is a workspace wired for host (adapt's wiring for the host
// named wiring), in block mode, with the rule on src/api/** and two
// files in its scope; files holds every watched file's content before the
// run.
type gateProject struct {
	*project
	files map[string]string
}

func newGateProject(t *testing.T, wiring string) *gateProject {
	t.Helper()
	if !hasHookEvent(t, "pre-tool") {
		t.Skip("this clumsies has no pre-tool hook event (`clumsies hook -h` does not list it): nothing is gated")
	}
	g := &gateProject{project: newProject(t, wiring), files: map[string]string{
		shellFile: "package api\n\n// X is appended to by no one.\nvar X = 1\n",
		modFile:   "package api\n\nfunc Handle() {}\n",
	}}
	writeFile(t, filepath.Join(g.dir, ".clumsies", "rules", filepath.FromSlash(gateRule)), gateRuleText)
	for rel, text := range g.files {
		writeFile(t, g.abs(rel), text)
	}
	config, err := os.ReadFile(g.abs(configFile))
	if err != nil {
		t.Fatal(err)
	}
	g.files[configFile] = string(config) + "\n[enforce]\nmode = \"block\"\n"
	writeFile(t, g.abs(configFile), g.files[configFile])
	return g
}

// abs is the absolute path of the workspace-relative rel.
func (g *gateProject) abs(rel string) string { return filepath.Join(g.dir, filepath.FromSlash(rel)) }

// plan has the script make ws with tools in order after memdisc, and
// returns the index in the plan of each write's call.
func (g *gateProject) plan(m *modelServer, tools hostTools, ws []gateWrite) []int {
	var steps []planned
	at := make([]int, len(ws))
	for i, w := range ws {
		abs := g.abs(w.path)
		switch {
		case w.shell:
			steps = append(steps, tools.shell(fmt.Sprintf("echo '%s' >> %s", w.mark, w.path)))
		case w.protected:
			if tools.read != nil {
				steps = append(steps, tools.read(abs))
			}
			steps = append(steps, tools.modify(abs, w.path, `mode = "block"`, `mode = "off" # `+w.mark))
		default:
			if tools.read != nil {
				steps = append(steps, tools.read(abs))
			}
			steps = append(steps, tools.modify(abs, w.path, "func Handle() {}", "func Handle() { /* "+w.mark+" */ }"))
		}
		at[i] = len(steps) - 1
	}
	m.setPlan(steps, nil)
	return at
}

// gated returns the attest.tool_gated events of session in evs.
func gated(t *testing.T, evs []event, session string) []events.ToolGatedData {
	t.Helper()
	var out []events.ToolGatedData
	for _, e := range evs {
		if e.SessionID != session || e.Type != events.TypeToolGated {
			continue
		}
		var d events.ToolGatedData
		if err := json.Unmarshal(e.Data, &d); err != nil {
			t.Fatalf("read an %s event: %v", e.Type, err)
		}
		out = append(out, d)
	}
	return out
}

// edited returns the attest.file_edit events of session in evs.
func edited(t *testing.T, evs []event, session string) []events.FileEditData {
	t.Helper()
	var out []events.FileEditData
	for _, e := range evs {
		if e.SessionID != session || e.Type != events.TypeFileEdit {
			continue
		}
		var d events.FileEditData
		if err := json.Unmarshal(e.Data, &d); err != nil {
			t.Fatalf("read an %s event: %v", e.Type, err)
		}
		out = append(out, d)
	}
	return out
}

// checkGate checks the scenario after the run: each write refused with
// the gate's reason, its file as it was, one attest.tool_gated deny for it
// (the shell's read from the command, config.toml's as protected, the
// others' naming the one rule not loaded), no attest.file_edit, the turn
// as every host's (checkTurnReported), and `clumsies stats --json`
// showing no edit got through.
func (g *gateProject) checkGate(t *testing.T, m *modelServer, host string, ws []gateWrite, at []int, reported bool) {
	t.Helper()
	id, calls, _ := m.seen()
	results, _ := m.planResults()
	evs := g.ledger(t)
	gates := gated(t, evs, id)
	t.Logf("the gate's events of session %q: %+v", id, gates)
	for i, w := range ws {
		t.Run(w.name, func(t *testing.T) {
			if at[i] >= len(results) || !strings.Contains(results[at[i]], gateDenied) {
				t.Errorf("the model did not read the gate's denial (%q) after the %s write; it read %q (the model's calls: %v)",
					gateDenied, w.path, results[at[i]], calls)
			}
			checkUnchanged(t, g.abs(w.path), g.files[w.path], w.mark)
			var denials []events.ToolGatedData
			for _, d := range gates {
				if slices.Contains(d.Paths, w.path) {
					denials = append(denials, d)
				}
			}
			if len(denials) != 1 {
				t.Fatalf("%d %s events of session %q name %s, want 1: %+v", len(denials), events.TypeToolGated, id, w.path, denials)
			}
			d := denials[0]
			if d.Decision != events.GateDeny || d.Shell != w.viaShell || d.Host != host {
				t.Errorf("the %s event of %s: decision %q, shell %v, host %q; want deny, shell %v, host %q",
					events.TypeToolGated, w.path, d.Decision, d.Shell, d.Host, w.viaShell, host)
			}
			switch {
			case w.protected && !slices.Equal(d.Protected, []string{configFile}):
				t.Errorf("the denial of %s names protected %q, want [%s]", w.path, d.Protected, configFile)
			case !w.protected && len(d.Missing) != 1:
				t.Errorf("the denial of %s names missing rules %q, want the one rule of %s", w.path, d.Missing, gateRule)
			}
		})
	}
	if n := count(evs, id, events.TypeLoad); n != 0 {
		t.Errorf("%d %s events of session %q: the script never loads the rule", n, events.TypeLoad, id)
	}
	for _, e := range edited(t, evs, id) {
		t.Errorf("an %s event of session %q, though every write was refused: %+v", events.TypeFileEdit, id, e)
	}
	var stats struct {
		Evidence struct {
			Edits    uint64 `json:"edits"`
			Sessions []struct {
				ID    string `json:"id"`
				Edits uint64 `json:"edits"`
			} `json:"sessions"`
		} `json:"evidence"`
	}
	if err := json.Unmarshal([]byte(g.clumsies(t, "stats", "--json")), &stats); err != nil {
		t.Fatalf("read clumsies stats --json: %v", err)
	}
	if stats.Evidence.Edits != 0 {
		t.Errorf("stats --json counts %d edits under evidence, want 0: every write was refused", stats.Evidence.Edits)
	}
	g.checkTurnReported(t, m, host, reported)
}

// checkUnchanged fails t unless the file holds want, naming the write's
// mark when that write got through.
func checkUnchanged(t *testing.T, path, want, mark string) {
	t.Helper()
	b, err := os.ReadFile(path)
	switch {
	case err != nil:
		t.Errorf("read %s after the run: %v", path, err)
	case strings.Contains(string(b), mark):
		t.Errorf("%s holds the denied write's text %q:\n%s", path, mark, b)
	case string(b) != want:
		t.Errorf("%s changed, though its write was denied:\n%s\nwant:\n%s", path, b, want)
	}
}

// claudeTools are Claude Code's: Bash, Read, Edit (which refuses a file
// not read first).
var claudeTools = hostTools{
	read: func(abs string) planned { return planned{tool: "Read", args: fixed(map[string]any{"file_path": abs})} },
	shell: func(command string) planned {
		return planned{tool: "Bash", args: fixed(map[string]any{"command": command, "description": "Append a line"})}
	},
	modify: func(abs, _, old, new string) planned {
		return planned{tool: "Edit", args: fixed(map[string]any{"file_path": abs, "old_string": old, "new_string": new})}
	},
}

// TestGateClaudeCode runs the gate's scenario in `claude -p`.
func TestGateClaudeCode(t *testing.T) {
	requireEnabled(t)
	bin := install(t, claudeCode)
	m := startModel(t, anthropicAPI)
	g := newGateProject(t, "claude-code")
	ws := gateWrites("claude-code")
	at := g.plan(m, claudeTools, ws)
	runClaudeCode(t, g.project, m, bin, "mcp__clumsies,Read,Edit,Write,Bash")
	g.checkGate(t, m, "claude-code", ws, at, true)
}

// TestGateCodex runs the gate's scenario in `codex exec`: the shell write
// through exec_command (Codex's hooks name it Bash), the modifications as
// apply_patch through exec_command (Codex offers no patch tool to a model
// it does not know).
func TestGateCodex(t *testing.T) {
	requireEnabled(t)
	bin := install(t, codex)
	m := startModel(t, responsesAPI)
	g := newGateProject(t, "codex")
	ws := gateWrites("codex")
	for i := range ws {
		ws[i].viaShell = true // a patch run through exec_command reaches the hooks as Bash's command
	}
	at := g.plan(m, hostTools{
		shell: func(command string) planned {
			return planned{tool: "exec_command", args: fixed(map[string]any{"cmd": command})}
		},
		modify: func(_, rel, old, new string) planned {
			return planned{tool: "exec_command", args: fixed(map[string]any{"cmd": "apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: " + rel +
				"\n@@\n-" + old + "\n+" + new + "\n*** End Patch\nEOF\n"})}
		},
	}, ws)
	runCodex(t, g.project, m, bin)
	g.checkGate(t, m, "codex", ws, at, true)
}

// TestGateGeminiCLI runs the gate's scenario in `gemini -p`:
// run_shell_command and replace.
func TestGateGeminiCLI(t *testing.T) {
	requireEnabled(t)
	bin := install(t, geminiCLI)
	m := startModel(t, geminiAPI)
	g := newGateProject(t, "gemini-cli")
	ws := gateWrites("gemini-cli")
	at := g.plan(m, hostTools{
		shell: func(command string) planned {
			return planned{tool: "run_shell_command", args: fixed(map[string]any{"command": command, "description": "Append a line"})}
		},
		modify: func(abs, _, old, new string) planned {
			return planned{tool: "replace", args: fixed(map[string]any{"file_path": abs, "old_string": old, "new_string": new,
				"instruction": "Change the line."})}
		},
	}, ws)
	runGemini(t, g.project, m, bin)
	g.checkGate(t, m, "gemini-cli", ws, at, true)
}

// copilotTools are Copilot CLI's: bash and edit.
var copilotTools = hostTools{
	shell: func(command string) planned {
		return planned{tool: "bash", args: fixed(map[string]any{"command": command, "description": "Append a line"})}
	},
	modify: func(abs, _, old, new string) planned {
		return planned{tool: "edit", args: fixed(map[string]any{"path": abs, "old_str": old, "new_str": new})}
	},
}

// TestGateCopilotCLI runs the gate's scenario in `copilot -p`.
func TestGateCopilotCLI(t *testing.T) {
	requireEnabled(t)
	if !hasAdaptHost(t, "copilot") {
		t.Skip("this clumsies has no `adapt copilot` yet (`clumsies adapt -h` does not list it): Copilot CLI is not wired")
	}
	bin := install(t, copilotCLI)
	m := startModel(t, anthropicAPI)
	g := newGateProject(t, "copilot")
	ws := gateWrites("copilot")
	at := g.plan(m, copilotTools, ws)
	runCopilot(t, g.project, m, bin)
	g.checkGate(t, m, "copilot", ws, at, true)
}

// TestGateCopilotOnClaudeWiring runs the gate's scenario in `copilot -p`
// in a repository wired only for Claude Code: Copilot runs the hooks of
// .claude/settings.json (handing them Edit and Bash), which record and
// answer as Copilot's.
func TestGateCopilotOnClaudeWiring(t *testing.T) {
	requireEnabled(t)
	bin := install(t, copilotCLI)
	m := startModel(t, anthropicAPI)
	g := newGateProject(t, "claude-code")
	ws := gateWrites("copilot")
	at := g.plan(m, copilotTools, ws)
	runCopilot(t, g.project, m, bin)
	g.checkGate(t, m, "copilot", ws, at, true)
}

// TestGateOpencode runs the gate's scenario in `opencode run`: bash, read
// and edit (which refuses a file not read first). `opencode run` exits
// when the session is idle, before the plugin's follow-up prompt for the
// report runs (TestOpencode), so no report comes.
func TestGateOpencode(t *testing.T) {
	requireEnabled(t)
	bin := install(t, opencode)
	m := startModel(t, anthropicAPI)
	g := newGateProject(t, "opencode")
	opencodeModel(t, g.project, m)
	ws := gateWrites("opencode")
	at := g.plan(m, hostTools{
		read: func(abs string) planned { return planned{tool: "read", args: fixed(map[string]any{"filePath": abs})} },
		shell: func(command string) planned {
			return planned{tool: "bash", args: fixed(map[string]any{"command": command})}
		},
		modify: func(abs, _, old, new string) planned {
			return planned{tool: "edit", args: fixed(map[string]any{"filePath": abs, "oldString": old, "newString": new})}
		},
	}, ws)
	g.runHost(t, []string{"OPENCODE_DISABLE_AUTOUPDATE=1"}, bin, opencodeRun()...)
	g.checkGate(t, m, "opencode", ws, at, false)
}

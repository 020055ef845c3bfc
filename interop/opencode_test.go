package interop_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// pluginRun is what opencode_plugin.mjs saw the plugin do.
type pluginRun struct {
	System  []string
	Asked   int
	Prompts int
	Request string
	Path    map[string]string
	// Thrown holds, by call id, the error tool.execute.before threw (the
	// tool did not run); Outputs the output of each tool that ran, as the
	// agent reads it.
	Thrown  map[string]string
	Outputs map[string]string
}

// runPlugin wires opencode in the workspace at dir with `clumsies adapt
// opencode` and fires opencode's events and hooks at the plugin it wrote,
// for session id (opencode_plugin.mjs).
func runPlugin(t *testing.T, dir, id string) pluginRun {
	t.Helper()
	node := requireNode(t)
	adapt := exec.Command(binary, "adapt", "opencode")
	adapt.Dir = dir
	adapt.Env = append(os.Environ(), "HOME="+t.TempDir())
	if out, err := adapt.CombinedOutput(); err != nil {
		t.Fatalf("clumsies adapt opencode: %v\n%s", err, out)
	}
	src, err := os.ReadFile(filepath.Join(dir, ".opencode", "plugins", "clumsies.js"))
	if err != nil {
		t.Fatal(err)
	}
	plugin := filepath.Join(t.TempDir(), "clumsies.mjs") // node reads a .js file outside a module package as CommonJS
	if err := os.WriteFile(plugin, src, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, "opencode_plugin.mjs", plugin, dir, id)
	// The plugin runs `clumsies` by name, as opencode would find it on PATH.
	cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(binary)+string(os.PathListSeparator)+os.Getenv("PATH"))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node opencode_plugin.mjs: %v\n%s", err, stderr.String())
	}
	var got pluginRun
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("harness output %q: %v", out, err)
	}
	return got
}

// TestOpencodePlugin loads the plugin that `clumsies adapt opencode` writes
// into node and fires opencode's events at it (opencode_plugin.mjs): the
// plugin must run the real `clumsies hook` for a session start, a user
// prompt and a stop, put the session id in the system prompt, send the
// request to report as a prompt when the stop is blocked, not count that
// request as the user's prompt, let every tool run with the gate off, and
// record an edit (post-tool), not a read or a command that named no file.
func TestOpencodePlugin(t *testing.T) {
	dir := newWorkspace(t)
	got := runPlugin(t, dir, "ses_interop1")
	if len(got.System) != 1 || !strings.Contains(got.System[0], `memsetup with session_id "ses_interop1"`) {
		t.Errorf("system prompt: got %q, want the session id and memsetup", got.System)
	}
	if got.Asked != 1 || got.Prompts != 1 || !strings.Contains(got.Request, "agentreport") || got.Path["id"] != "ses_interop1" {
		t.Errorf("got %+v, want one request to report, sent to the session, and none after it", got)
	}
	if len(got.Thrown) != 0 || len(got.Outputs) != 3 {
		t.Errorf("tools: thrown %v, ran %v; want all three run, none refused", got.Thrown, got.Outputs)
	}
	count := map[string]int{}
	for _, ev := range ledger(t, dir, "ses_interop1") {
		count[string(ev.Type)]++
		if ev.Type == "attest.file_edit" && !strings.Contains(string(ev.Data), `"paths":["api/handler.go"]`) {
			t.Errorf("file edit %s: want the edited file relative to the workspace", ev.Data)
		}
	}
	if count["attest.file_edit"] != 1 {
		t.Errorf("ledger of the session: got %d file edits, want 1 (the edit, not the read)", count["attest.file_edit"])
	}
	if count["attest.session_start"] != 1 || count["attest.user_prompt"] != 1 || count["attest.stop_blocked"] != 1 {
		t.Errorf("ledger of the session: got %v, want one session start, one user prompt, one blocked stop", count)
	}
}

// TestOpencodePluginGate: with a rule for api/**/*.go that the session has
// not loaded, the plugin's tool.execute.before throws the gate's reason in
// block mode, so opencode does not run the edit and the agent reads which
// memload to make; a read and a shell command no rule is about run. In
// warn mode the edit runs and its output carries the warning.
func TestOpencodePluginGate(t *testing.T) {
	for _, mode := range []string{"block", "warn"} {
		t.Run(mode, func(t *testing.T) {
			dir := newWorkspace(t)
			rule := filepath.Join(dir, ".clumsies", "rules", "api", "HANDLERS.md")
			if err := os.MkdirAll(filepath.Dir(rule), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(rule, []byte("---\npaths:\n  - \"api/**/*.go\"\n---\n# Handlers\n\nMap errors to status codes in one place.\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			cfg := filepath.Join(dir, ".clumsies", "config.toml")
			b, err := os.ReadFile(cfg)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(cfg, append(b, "\n[enforce]\nmode = \""+mode+"\"\n"...), 0o644); err != nil {
				t.Fatal(err)
			}
			mustRun(t, dir, "publish")
			got := runPlugin(t, dir, "ses_gate_"+mode)
			switch mode {
			case "block":
				if !strings.Contains(got.Thrown["call_1"], "memload") || len(got.Thrown) != 1 {
					t.Errorf("block: thrown %v, want the edit refused with the memload to make, and nothing else", got.Thrown)
				}
				if _, ran := got.Outputs["call_1"]; ran || got.Outputs["call_3"] != "done" {
					t.Errorf("block: outputs %v, want the edit not run and the command run as it was", got.Outputs)
				}
			case "warn":
				if len(got.Thrown) != 0 || !strings.Contains(got.Outputs["call_1"], "memload") || got.Outputs["call_2"] != "done" {
					t.Errorf("warn: thrown %v, outputs %v; want every tool run and the edit's output naming memload", got.Thrown, got.Outputs)
				}
			}
		})
	}
}

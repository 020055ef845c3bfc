package interop_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestOpencodePlugin loads the plugin that `clumsies adapt opencode` writes
// into node and fires opencode's events at it (opencode_plugin.mjs): the
// plugin must run the real `clumsies hook` for a session start, a user
// prompt and a stop, put the session id in the system prompt, send the
// request to report as a prompt when the stop is blocked, not count that
// request as the user's prompt, and record an edit (post-tool), not a read.
func TestOpencodePlugin(t *testing.T) {
	node := requireNode(t)
	dir := newWorkspace(t)
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
	cmd := exec.Command(node, "opencode_plugin.mjs", plugin, dir, "ses_interop1")
	// The plugin runs `clumsies` by name, as opencode would find it on PATH.
	cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(binary)+string(os.PathListSeparator)+os.Getenv("PATH"))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node opencode_plugin.mjs: %v\n%s", err, stderr.String())
	}
	var got struct {
		System  []string
		Asked   int
		Prompts int
		Request string
		Path    map[string]string
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("harness output %q: %v", out, err)
	}
	if len(got.System) != 1 || !strings.Contains(got.System[0], `memsetup with session_id "ses_interop1"`) {
		t.Errorf("system prompt: got %q, want the session id and memsetup", got.System)
	}
	if got.Asked != 1 || got.Prompts != 1 || !strings.Contains(got.Request, "agentreport") || got.Path["id"] != "ses_interop1" {
		t.Errorf("got %+v, want one request to report, sent to the session, and none after it", got)
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

package adapt

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHosts_PostToolGolden reads each host's post-tool inputs
// (testdata/<host>/post-tool*.json, in the shapes of the host's docs:
// Claude Code's PostToolUse, Codex's apply_patch, Gemini CLI's AfterTool,
// Copilot CLI's camelCase postToolUse, Cursor's afterFileEdit and
// afterShellExecution, VS Code's PostToolUse, Windsurf's post_write_code
// and post_run_command, what the opencode plugin sends; a shell tool's,
// post-tool-shell.json, and a failed tool's, post-tool-failed.json) and
// compares the tool and paths adapt reads of
// them, and its answer, with the .golden file beside.
func TestHosts_PostToolGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*", "post-tool*.json"))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, file := range files {
		host := filepath.Base(filepath.Dir(file))
		seen[host] = true
		t.Run(strings.TrimSuffix(filepath.ToSlash(file), ".json"), func(t *testing.T) {
			h, err := Lookup(host)
			if err != nil {
				t.Fatal(err)
			}
			raw, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			in, err := h.Read(PostTool, raw)
			if err != nil {
				t.Fatal(err)
			}
			inJSON, _ := json.Marshal(in)
			got := "input: " + string(inJSON) + "\nanswer: " + show(h.Answer(PostTool, Answer{}))
			golden := strings.TrimSuffix(file, ".json") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./agent/adapt -update)", err)
			}
			if got != string(want) {
				t.Errorf("got\n%s\nwant\n%s", got, want)
			}
		})
	}
	for _, h := range Hosts() {
		if !seen[h.Name] {
			t.Errorf("%s: no testdata/%s/post-tool.json", h.Name, h.Name)
		}
	}
}

package adapt

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHosts_PreToolGolden reads each pre-tool host's input for a
// file-changing tool (testdata/<host>/pre-tool.json, in the shapes of the
// host's docs) and compares what adapt reads and the deny, warning and
// neutral answers with testdata/<host>/pre-tool.golden.
func TestHosts_PreToolGolden(t *testing.T) {
	for _, h := range Hosts() {
		if !h.HasPreTool() {
			if out := h.Answer(PreTool, Answer{Block: true, Reason: "r"}); out != nil {
				t.Errorf("%s has no pre-tool hook but answers %q", h.Name, out)
			}
			continue
		}
		t.Run(h.Name, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join("testdata", h.Name, "pre-tool.json"))
			if err != nil {
				t.Fatal(err)
			}
			in, err := h.Read(PreTool, raw)
			if err != nil {
				t.Fatal(err)
			}
			if len(in.Files) != 1 {
				t.Fatalf("files %q, want the one the tool writes", in.Files)
			}
			var b strings.Builder
			inJSON, _ := json.Marshal(in)
			b.WriteString("input: " + string(inJSON) + "\n")
			b.WriteString("deny: " + show(h.Answer(PreTool, Answer{Block: true, Reason: "load the rules first"})))
			b.WriteString("warn: " + show(h.Answer(PreTool, Answer{Context: "rules apply"})))
			b.WriteString("neutral: " + show(h.Answer(PreTool, Answer{})))
			checkGolden(t, filepath.Join("testdata", h.Name, "pre-tool.golden"), b.String())
		})
	}
}

// A read is never gated: its input has no files.
func TestHosts_PreToolReadsHaveNoFiles(t *testing.T) {
	for name, raw := range map[string]string{
		"claude-code": `{"session_id":"s","cwd":"/w","tool_name":"Read","tool_input":{"file_path":"/w/api/h.go"}}`,
		"gemini-cli":  `{"session_id":"s","cwd":"/w","tool_name":"read_file","tool_input":{"file_path":"/w/api/h.go"}}`,
		"copilot":     `{"sessionId":"s","cwd":"/w","toolName":"view","toolArgs":"{\"path\":\"/w/api/h.go\"}"}`,
	} {
		h, err := Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		in, err := h.Read(PreTool, []byte(raw))
		if err != nil {
			t.Fatal(err)
		}
		if in.Files != nil || in.Tool == "" {
			t.Errorf("%s: read %+v, want the tool and no files", name, in)
		}
	}
}

// Copilot CLI running Claude Code's hooks gives Claude's snake_case input
// with its own tool names: the edit is read, as from its own hook.
func TestHosts_PreToolCopilotRunsClaudeCodes(t *testing.T) {
	h, err := Lookup("copilot")
	if err != nil {
		t.Fatal(err)
	}
	in, err := h.Read(PreTool, []byte(`{"session_id":"s","cwd":"/w","tool_name":"create","tool_input":{"path":"/w/api/h.go","file_text":"x"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if in.SessionID != "s" || in.Tool != "create" || len(in.Files) != 1 || in.Files[0] != "/w/api/h.go" {
		t.Errorf("read %+v, want session s creating /w/api/h.go", in)
	}
}

// adapt writes the pre-tool hook into the settings file of the hosts that
// have one, and --remove takes it out with the others.
func TestPlan_PreToolHook(t *testing.T) {
	for _, h := range Hosts() {
		if !h.HasPreTool() {
			continue
		}
		env := setUp(t)
		path := h.preTool.settings(Project, env)
		if _, err := h.Plan(Project, env).Apply(); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), "hook pre-tool --host "+h.Name) {
			t.Errorf("%s: %s has no pre-tool hook:\n%s", h.Name, path, b)
		}
		if _, err := h.Plan(Project, env).Remove(); err != nil {
			t.Fatal(err)
		}
		b, _ = os.ReadFile(path)
		if strings.Contains(string(b), "pre-tool") {
			t.Errorf("%s: --remove left the pre-tool hook:\n%s", h.Name, b)
		}
	}
}

package adapt

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHosts_PreToolGolden reads each host's pre-tool inputs
// (testdata/<host>/pre-tool*.json, in the shapes of the host's docs or of
// its captured inputs: pre-tool.json a tool that changes a file,
// pre-tool-shell.json its shell tool) and compares what adapt reads and the
// refusal, warning and neutral replies with the .golden file beside.
func TestHosts_PreToolGolden(t *testing.T) {
	for _, h := range Hosts() {
		if !h.HasPreTool() {
			t.Errorf("%s has no pre-tool hook", h.Name)
			continue
		}
		files, err := filepath.Glob(filepath.Join("testdata", h.Name, "pre-tool*.json"))
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for _, file := range files {
			name := strings.TrimSuffix(filepath.Base(file), ".json")
			seen[name] = true
			t.Run(h.Name+"/"+name, func(t *testing.T) {
				raw, err := os.ReadFile(file)
				if err != nil {
					t.Fatal(err)
				}
				in, err := h.Read(PreTool, raw)
				if err != nil {
					t.Fatal(err)
				}
				switch {
				case name == "pre-tool" && len(in.Files) != 1:
					t.Errorf("files %q, want the one the tool writes", in.Files)
				case name == "pre-tool-shell" && (in.Command == "" || in.Files != nil):
					t.Errorf("command %q, files %q: want the command line and no files", in.Command, in.Files)
				}
				var b strings.Builder
				inJSON, _ := json.Marshal(in)
				b.WriteString("input: " + string(inJSON) + "\n")
				b.WriteString(showReply("deny", h.Reply(PreTool, Answer{Block: true, Reason: "load the rules first"})))
				b.WriteString(showReply("warn", h.Reply(PreTool, Answer{Context: "rules apply"})))
				b.WriteString(showReply("neutral", h.Reply(PreTool, Answer{})))
				checkGolden(t, filepath.Join("testdata", h.Name, name+".golden"), b.String())
			})
		}
		for _, want := range []string{"pre-tool", "pre-tool-shell"} {
			if !seen[want] {
				t.Errorf("%s: no testdata/%s/%s.json", h.Name, h.Name, want)
			}
		}
	}
}

// showReply renders a reply for a golden file: stdout, and stderr and the
// exit status when set.
func showReply(label string, r Reply) string {
	s := label + ": " + show(r.Stdout)
	if r.Stderr != "" {
		s += label + " stderr: " + r.Stderr + "\n"
	}
	if r.Exit != 0 {
		s += fmt.Sprintf("%s exit: %d\n", label, r.Exit)
	}
	return s
}

// Only Windsurf's gate refusal exits with a status: 2 is a block for
// Claude Code, Gemini CLI, Codex and VS Code, a refusal for Copilot CLI.
func TestHosts_ReplyExitsZeroButWindsurfRefusal(t *testing.T) {
	answers := []Answer{{}, {Context: "c"}, {Block: true, Reason: "r"}, {Block: true, Reason: "r", Context: "c"}}
	for _, h := range Hosts() {
		for _, ev := range []Event{SessionStart, UserPrompt, Stop, PreTool, PostTool} {
			for _, a := range answers {
				want := 0
				if h == windsurf && ev == PreTool && a.Block {
					want = 2
				}
				r := h.Reply(ev, a)
				if r.Exit != want {
					t.Errorf("%s %s %+v: exit %d, want %d", h.Name, ev, a, r.Exit, want)
				}
				if len(r.Stdout) > 0 && !json.Valid(r.Stdout) {
					t.Errorf("%s %s %+v: stdout %q is not JSON", h.Name, ev, a, r.Stdout)
				}
				if h == windsurf && want == 2 && r.Stderr != a.Reason {
					t.Errorf("windsurf refusal: stderr %q, want the reason", r.Stderr)
				}
			}
		}
	}
}

// A read is never gated: its input has no files and no command.
func TestHosts_PreToolReadsHaveNoFiles(t *testing.T) {
	for _, c := range []struct{ host, raw string }{
		{"claude-code", `{"session_id":"s","cwd":"/w","tool_name":"Read","tool_input":{"file_path":"/w/api/h.go"}}`},
		{"gemini-cli", `{"session_id":"s","cwd":"/w","tool_name":"read_file","tool_input":{"file_path":"/w/api/h.go"}}`},
		{"copilot", `{"sessionId":"s","cwd":"/w","toolName":"view","toolArgs":"{\"path\":\"/w/api/h.go\"}"}`},
		{"cursor", `{"conversation_id":"s","hook_event_name":"preToolUse","workspace_roots":["/w"],"tool_name":"Read","tool_input":{"file_path":"/w/api/h.go"}}`},
		{"vscode", `{"sessionId":"s","cwd":"/w","hookEventName":"PreToolUse","tool_name":"readFile","tool_input":{"filePath":"/w/api/h.go"}}`},
		{"opencode", `{"session_id":"s","cwd":"/w","tool_name":"read","tool_input":{"filePath":"/w/api/h.go"}}`},
	} {
		h, err := Lookup(c.host)
		if err != nil {
			t.Fatal(err)
		}
		in, err := h.Read(PreTool, []byte(c.raw))
		if err != nil {
			t.Fatal(err)
		}
		if in.Files != nil || in.Command != "" || in.Tool == "" {
			t.Errorf("%s: read %+v, want the tool, no files and no command", c.host, in)
		}
	}
}

// Tool names are compared without their case: Copilot CLI hands its own
// hooks edit and Claude Code's Edit, and either is read as the edit it is,
// whichever host's hook reads it.
func TestHosts_ToolNamesIgnoreCase(t *testing.T) {
	for _, tool := range []string{"edit", "Edit", "EDIT", "create", "Write", "str_replace_editor", "StrReplace", "editFiles"} {
		for _, h := range []*Host{claudeCode, copilot, vscode} {
			raw := fmt.Sprintf(`{"sessionId":"s","cwd":"/w","toolName":%q,"toolArgs":"{\"path\":\"/w/api/h.go\"}"}`, tool)
			in, err := h.Read(PreTool, []byte(raw))
			if err != nil {
				t.Fatal(err)
			}
			if len(in.Files) != 1 || in.Files[0] != "/w/api/h.go" {
				t.Errorf("%s reading %s: files %q, want /w/api/h.go", h.Name, tool, in.Files)
			}
		}
	}
	for _, tool := range []string{"bash", "Bash", "run_shell_command", "Shell", "runTerminalCommand", "powershell"} {
		raw := fmt.Sprintf(`{"session_id":"s","cwd":"/w","tool_name":%q,"tool_input":{"command":"touch x"}}`, tool)
		in, err := copilot.Read(PreTool, []byte(raw))
		if err != nil {
			t.Fatal(err)
		}
		if in.Command != "touch x" {
			t.Errorf("%s: command %q, want touch x", tool, in.Command)
		}
	}
}

// adapt writes the hooks around the tools into the host's file, and
// --remove takes them out with the others.
func TestPlan_ToolHooks(t *testing.T) {
	for _, h := range Hosts() {
		if h.tools == nil || h.tools.file == nil {
			continue
		}
		env := setUp(t)
		path := h.tools.file(Project, env)
		if _, err := h.Plan(Project, env).Apply(); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, ev := range []Event{PreTool, PostTool} {
			if !strings.Contains(string(b), "hook "+string(ev)+" --host "+h.Name) {
				t.Errorf("%s: %s has no %s hook:\n%s", h.Name, path, ev, b)
			}
		}
		if _, err := h.Plan(Project, env).Remove(); err != nil {
			t.Fatal(err)
		}
		b, _ = os.ReadFile(path)
		if strings.Contains(string(b), "pre-tool") || strings.Contains(string(b), "post-tool") {
			t.Errorf("%s: --remove left the tool hooks:\n%s", h.Name, b)
		}
	}
}

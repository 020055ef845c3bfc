package adapt

import (
	"os"
	"path/filepath"
	"testing"
)

// TestHosts_CapturedPrompts reads the prompts that real hosts sent
// (testdata/captured/<host>/, as captured from the programs): the user's
// prompt comes out alone, and the stop hook's reason sent back is marked
// as an echo, not the user's.
func TestHosts_CapturedPrompts(t *testing.T) {
	for _, c := range []struct {
		host, file, prompt string
		echo               bool
	}{
		{"gemini-cli", "02-BeforeAgent", "say hi", false},
		{"gemini-cli", "04-BeforeAgent", StopReason("779f388a-b4e5-401b-911e-a99560533502"), true},
		{"copilot", "03-userPromptSubmitted", "say hi", false},
		{"copilot", "04-UserPromptSubmit", "say hi", false},
		{"copilot", "07-userPromptSubmitted", StopReason("8f38e517-8a94-492f-9e2c-ed509d6e5eb6"), true},
		{"copilot", "08-UserPromptSubmit", StopReason("8f38e517-8a94-492f-9e2c-ed509d6e5eb6"), true},
	} {
		t.Run(c.host+"/"+c.file, func(t *testing.T) {
			h, err := Lookup(c.host)
			if err != nil {
				t.Fatal(err)
			}
			raw, err := os.ReadFile(filepath.Join("testdata", "captured", c.host, c.file+".json"))
			if err != nil {
				t.Fatal(err)
			}
			in, err := h.Read(UserPrompt, raw)
			if err != nil {
				t.Fatal(err)
			}
			if in.Prompt != c.prompt || in.Echo != c.echo {
				t.Errorf("got prompt %q echo %v, want %q echo %v", in.Prompt, in.Echo, c.prompt, c.echo)
			}
		})
	}
}

// TestRunBy: Copilot CLI runs the hooks of Claude Code and VS Code that
// it finds, with COPILOT_CLI=1; a hook of another host keeps its host.
func TestRunBy(t *testing.T) {
	copilotEnv := func(k string) string {
		if k == "COPILOT_CLI" {
			return "1"
		}
		return ""
	}
	for _, h := range Hosts() {
		want := h
		if h == claudeCode || h == vscode {
			want = copilot
		}
		if got := RunBy(h, copilotEnv); got != want {
			t.Errorf("%s under Copilot CLI: run by %s, want %s", h.Name, got.Name, want.Name)
		}
		if got := RunBy(h, func(string) string { return "" }); got != h {
			t.Errorf("%s outside Copilot CLI: run by %s", h.Name, got.Name)
		}
	}
}

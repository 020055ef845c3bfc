package hosts

import (
	"strings"
	"testing"
)

// TestCodex drives `codex exec` through the scripted turn against a
// stand-in Responses API. --trust saves the project's trust (Codex
// ignores .codex/config.toml until then) and
// --dangerously-bypass-hook-trust runs the project's hooks without the
// review the interactive codex asks for.
func TestCodex(t *testing.T) {
	requireEnabled(t)
	bin := install(t, codex)
	m := startModel(t, responsesAPI)
	p := newProject(t, "codex")
	// Codex offers no patch tool to a model it does not know: the model
	// runs apply_patch through its shell tool, which Codex takes as a
	// patch.
	h := p.prepareEdit(t, m, "exec_command", func(string) map[string]any {
		return map[string]any{"cmd": "apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: " + editedFile + "\n+" +
			strings.TrimSuffix(editedText, "\n") + "\n*** End Patch\nEOF\n"}
	})
	h.viaStop = "Codex 0.171.0 runs no PostToolUse hook for a patch applied through exec_command " +
		"(it prints \"apply patch\", \"patch: completed\" and no hook line; docs/adapters.md)"
	runCodex(t, p, m, bin)
	p.checkTurn(t, m, "codex")
	p.checkEdit(t, m, h)
}

// runCodex runs `codex exec` with the prompt in the workspace against the
// stand-in model.
func runCodex(t *testing.T, p *project, m *modelServer, bin string) {
	t.Helper()
	p.runHost(t, []string{"STANDIN_API_KEY=stand-in"}, bin, "exec",
		"-c", `model_providers.standin={name="stand-in", base_url="`+m.URL+`/v1", wire_api="responses", env_key="STANDIN_API_KEY"}`,
		"-c", "model_provider=standin", "-c", "model=stand-in",
		"--trust", "--dangerously-bypass-hook-trust", "--skip-git-repo-check",
		prompt)
}

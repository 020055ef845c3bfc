package hosts

import (
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
	p.runHost(t, []string{"STANDIN_API_KEY=stand-in"}, bin, "exec",
		"-c", `model_providers.standin={name="stand-in", base_url="`+m.URL+`/v1", wire_api="responses", env_key="STANDIN_API_KEY"}`,
		"-c", "model_provider=standin", "-c", "model=stand-in",
		"--trust", "--dangerously-bypass-hook-trust", "--skip-git-repo-check",
		prompt)
	p.checkTurn(t, m, "codex")
}

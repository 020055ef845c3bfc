package hosts

import (
	"path/filepath"
	"testing"
)

// TestClaudeCode drives `claude -p` through the scripted turn against a
// stand-in Anthropic Messages API.
func TestClaudeCode(t *testing.T) {
	requireEnabled(t)
	bin := install(t, claudeCode)
	m := startModel(t, anthropicAPI)
	p := newProject(t, "claude-code")
	h := p.prepareEdit(t, m, "Write", func(path string) map[string]any {
		return map[string]any{"file_path": path, "content": editedText}
	})
	runClaudeCode(t, p, m, bin, "mcp__clumsies,Write")
	p.checkTurn(t, m, "claude-code")
	p.checkEdit(t, m, h)
}

// runClaudeCode runs `claude -p` with the prompt in the workspace against
// the stand-in model, allowing the tools named (--allowedTools).
func runClaudeCode(t *testing.T, p *project, m *modelServer, bin, tools string) {
	t.Helper()
	// What approving the project's .mcp.json in the interactive claude writes.
	writeFile(t, filepath.Join(p.dir, ".claude", "settings.local.json"), `{"enabledMcpjsonServers":["clumsies"]}`)
	p.runHost(t, []string{
		"ANTHROPIC_BASE_URL=" + m.URL,
		"ANTHROPIC_API_KEY=stand-in",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"DISABLE_AUTOUPDATER=1",
	}, bin, "-p", prompt, "--allowedTools", tools)
}

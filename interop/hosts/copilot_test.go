package hosts

import (
	"testing"
)

// TestCopilotCLI drives `copilot -p` through the scripted turn against a
// stand-in Anthropic Messages API (Copilot's own provider type
// "anthropic", offline).
func TestCopilotCLI(t *testing.T) {
	requireEnabled(t)
	if !hasAdaptHost(t, "copilot") {
		t.Skip("this clumsies has no `adapt copilot` yet (`clumsies adapt -h` does not list it): Copilot CLI is not wired")
	}
	bin := install(t, copilotCLI)
	m := startModel(t, anthropicAPI)
	p := newProject(t, "copilot")
	h := p.prepareEdit(t, m, "create", func(path string) map[string]any {
		return map[string]any{"path": path, "file_text": editedText}
	})
	runCopilot(t, p, m, bin)
	p.checkTurn(t, m, "copilot")
	p.checkEdit(t, m, h)
}

// runCopilot runs `copilot -p` with the prompt in the workspace against
// the stand-in model.
func runCopilot(t *testing.T, p *project, m *modelServer, bin string) {
	t.Helper()
	p.runHost(t, []string{
		"COPILOT_PROVIDER_BASE_URL=" + m.URL,
		"COPILOT_PROVIDER_TYPE=anthropic",
		"COPILOT_PROVIDER_API_KEY=stand-in",
		"COPILOT_MODEL=claude-sonnet-4.5",
		"COPILOT_OFFLINE=true",
		"COPILOT_AUTO_UPDATE=false",
	}, bin, "-p", prompt, "--trust-folder", "--allow-all-tools")
}

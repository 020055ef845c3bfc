package hosts

import (
	"path/filepath"
	"testing"
)

// TestGeminiCLI drives `gemini -p` through the scripted turn against a
// stand-in Gemini API.
func TestGeminiCLI(t *testing.T) {
	requireEnabled(t)
	bin := install(t, geminiCLI)
	m := startModel(t, geminiAPI)
	p := newProject(t, "gemini-cli")
	h := p.prepareEdit(t, m, "write_file", func(path string) map[string]any {
		return map[string]any{"file_path": path, "content": editedText}
	})
	runGemini(t, p, m, bin)
	p.checkTurn(t, m, "gemini-cli")
	p.checkEdit(t, m, h)
}

// runGemini runs `gemini -p` with the prompt in the workspace against the
// stand-in model.
func runGemini(t *testing.T, p *project, m *modelServer, bin string) {
	t.Helper()
	// Gemini CLI reads the project's settings (hooks, MCP) only in a
	// trusted folder; the API key auth lets the base URL be set.
	writeFile(t, filepath.Join(p.home, ".gemini", "trustedFolders.json"), mustJSON(map[string]string{p.dir: "TRUST_FOLDER"}))
	writeFile(t, filepath.Join(p.home, ".gemini", "settings.json"), `{"security":{"auth":{"selectedType":"gemini-api-key"}}}`)
	p.runHost(t, []string{
		"GOOGLE_GEMINI_BASE_URL=" + m.URL,
		"GEMINI_API_KEY=stand-in",
	}, bin, "-p", prompt, "--approval-mode", "yolo")
}

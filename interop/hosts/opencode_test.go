package hosts

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestOpencode drives `opencode run` through the scripted turn against a
// stand-in Anthropic Messages API, configured as a provider of the user's
// opencode.json.
func TestOpencode(t *testing.T) {
	requireEnabled(t)
	bin := install(t, opencode)
	m := startModel(t, anthropicAPI)
	p := newProject(t, "opencode")
	h := p.prepareEdit(t, m, "write", func(path string) map[string]any {
		return map[string]any{"filePath": path, "content": editedText}
	})
	writeFile(t, filepath.Join(p.home, ".config", "opencode", "opencode.json"), mustJSON(map[string]any{
		"$schema":    "https://opencode.ai/config.json",
		"autoupdate": false,
		"share":      "disabled",
		"model":      "standin/stand-in",
		"provider": map[string]any{"standin": map[string]any{
			"npm":     "@ai-sdk/anthropic",
			"name":    "stand-in",
			"options": map[string]any{"baseURL": m.URL + "/v1", "apiKey": "stand-in"},
			"models":  map[string]any{"stand-in": map[string]any{"name": "stand-in", "tool_call": true}},
		}},
	}))
	// opencode run quotes each argument holding a space in the message it
	// sends, so the prompt goes as words, as typed without quotes.
	args := append([]string{"run", "--model", "standin/stand-in"}, strings.Fields(prompt)...)
	p.runHost(t, []string{"OPENCODE_DISABLE_AUTOUPDATE=1"}, bin, args...)
	p.checkTurn(t, m, "opencode")
	p.checkEdit(t, m, h)
}

package hosts

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/clumsies/clumsies/events"
)

// opencodeProject is a workspace wired for opencode, with the stand-in
// model as a provider of the user's opencode.json, and the scripted edit.
func opencodeProject(t *testing.T, m *modelServer) (*project, *editHooks) {
	t.Helper()
	p := newProject(t, "opencode")
	h := p.prepareEdit(t, m, "write", func(path string) map[string]any {
		return map[string]any{"filePath": path, "content": editedText}
	})
	opencodeModel(t, p, m)
	return p, h
}

// opencodeModel makes the stand-in model a provider of the user's
// opencode.json, and opencode's model.
func opencodeModel(t *testing.T, p *project, m *modelServer) {
	t.Helper()
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
}

// opencodeRun is `opencode run` with the prompt. opencode run quotes each
// argument holding a space in the message it sends, so the prompt goes as
// words, as typed without quotes.
func opencodeRun(extra ...string) []string {
	return append(append([]string{"run", "--model", "standin/stand-in"}, extra...), strings.Fields(prompt)...)
}

// TestOpencode drives `opencode run` through the scripted turn against a
// stand-in Anthropic Messages API. opencode cannot refuse a stop: the
// plugin sends the stop hook's reason as a new prompt, and `opencode run`
// exits when the session is idle, before that prompt runs; so the report
// never comes (docs/adapters.md). TestOpencodeServe runs the whole turn.
func TestOpencode(t *testing.T) {
	requireEnabled(t)
	bin := install(t, opencode)
	m := startModel(t, anthropicAPI)
	p, h := opencodeProject(t, m)
	p.runHost(t, []string{"OPENCODE_DISABLE_AUTOUPDATE=1"}, bin, opencodeRun()...)
	p.checkTurnReported(t, m, "opencode", false)
	p.checkEdit(t, m, h)
}

// TestOpencodeServe runs the scripted turn with `opencode run --attach` on
// an `opencode serve`, which keeps running when the first turn is idle and
// so runs the plugin's follow-up prompt: the report comes.
func TestOpencodeServe(t *testing.T) {
	requireEnabled(t)
	bin := install(t, opencode)
	m := startModel(t, anthropicAPI)
	p, h := opencodeProject(t, m)
	env := []string{"OPENCODE_DISABLE_AUTOUPDATE=1"}
	port := freePort(t)
	stop := p.startHost(t, env, bin, "serve", "--port", strconv.Itoa(port))
	defer stop()
	waitListening(t, port)
	p.runHost(t, env, bin, opencodeRun("--attach", "http://127.0.0.1:"+strconv.Itoa(port), "--dir", p.dir)...)
	p.waitEvent(t, events.TypeAgentReport)
	stop()
	p.checkTurn(t, m, "opencode")
	p.checkEdit(t, m, h)
}

// waitEvent waits, bounded generously, for an event of type typ in the
// workspace.
func (p *project) waitEvent(t *testing.T, typ events.Type) {
	t.Helper()
	for end := time.Now().Add(2 * time.Minute); time.Now().Before(end); time.Sleep(time.Second) {
		if strings.TrimSpace(p.clumsies(t, "events", "--json", "--type", string(typ))) != "" {
			return
		}
	}
	t.Errorf("no %s event after 2 minutes", typ)
}

package adapt

import (
	"fmt"
	"path/filepath"
	"strconv"
)

// Codex: MCP servers in config.toml as [mcp_servers.<name>] (command,
// args), in .codex/ (project) or ~/.codex/ (user); hooks in hooks.json
// next to it, in Claude Code's layout and with Claude Code's input and
// output (session_id, source, prompt, stop_hook_active;
// hookSpecificOutput.additionalContext; {"decision": "block", "reason"}).
// config.toml expands no variables.
var codex = &Host{
	Name:      "codex",
	Title:     "Codex",
	SessionID: "the Codex session (thread) id (session_id in hook input)",
	plan: func(s Scope, e Env) Plan {
		dir := filepath.Join(e.Root, ".codex")
		if s == User {
			dir = filepath.Join(e.Home, ".codex")
		}
		body := fmt.Sprintf("[mcp_servers.clumsies]\ncommand = %s\nargs = [\"serve\"]\n", strconv.Quote(e.command()))
		return Plan{
			Files: []File{
				{Path: filepath.Join(dir, "config.toml"), toml: &tomlEntry{host: "codex", body: body, tables: []string{"mcp_servers.clumsies"}}},
				{Path: filepath.Join(dir, "hooks.json"), json: commandHooks("codex", e, map[Event]string{
					SessionStart: "SessionStart", UserPrompt: "UserPromptSubmit", Stop: "Stop"})},
			},
			Notes: []string{
				"config.toml has no path variable: `clumsies serve` finds the workspace from the folder Codex runs in.",
				"Codex runs a hook only once you trust it (Codex lists new hooks for review), and project hooks only in a trusted project.",
				"Codex releases from before hooks were on by default need `hooks = true` under [features] in config.toml.",
			},
		}
	},
	read: readCommon,
	answer: func(ev Event, a Answer) []byte {
		return claudeCode.answer(ev, a)
	},
}

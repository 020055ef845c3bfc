package adapt

import (
	_ "embed"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// opencodePlugin is the plugin adapt writes for opencode; its COMMAND line
// is set to Env.Command.
//
//go:embed opencode.js
var opencodePlugin string

// opencode: MCP servers in opencode.json (project root) or
// ~/.config/opencode/opencode.json as "mcp": {name: {type: local, command:
// [argv], enabled}}. opencode has no command hooks: plugins in
// .opencode/plugins/ (or ~/.config/opencode/plugins/) subscribe to its
// events (session.created, session.idle, chat.message) in JavaScript. The
// plugin adapt writes runs `clumsies hook` on them with the snake_case
// input of the other hosts and reads a small answer: {"context"} to a
// session start, {"decision": "block", "reason"} to a stop, which it sends
// as a new prompt since opencode cannot refuse a stop. Around the tools
// that can write (write, edit, multiedit, patch, and bash with
// args.command) the plugin runs the pre-tool hook in tool.execute.before,
// where throwing refuses the call (the agent reads the error), and the
// post-tool hook in tool.execute.after, which runs only after a tool that
// succeeded.
var opencode = &Host{
	Name:      "opencode",
	Title:     "opencode",
	SessionID: "the opencode session id (sessionID in its events)",
	plan: func(s Scope, e Env) Plan {
		dir := e.Root
		if s == User {
			dir = filepath.Join(e.Home, ".config", "opencode")
		}
		config := filepath.Join(dir, "opencode.json")
		if _, err := os.Stat(filepath.Join(dir, "opencode.jsonc")); err == nil {
			config = filepath.Join(dir, "opencode.jsonc") // the user's JSONC config, edited in place
		}
		plugins := filepath.Join(dir, ".opencode", "plugins")
		if s == User {
			plugins = filepath.Join(dir, "plugins")
		}
		plugin := strings.Replace(opencodePlugin, `const COMMAND = "clumsies"`, "const COMMAND = "+strconv.Quote(e.command()), 1)
		return Plan{
			Files: []File{
				{Path: config, scaffold: obj{{"$schema", "https://opencode.ai/config.json"}}, json: []jsonEntry{{
					path:  []string{"mcp", "clumsies"},
					value: obj{{"type", "local"}, {"command", []string{e.command(), "serve"}}, {"enabled", true}},
				}}},
				{Path: filepath.Join(plugins, "clumsies.js"), owned: []byte(plugin)},
			},
			Notes: []string{
				"opencode has no command hooks: a plugin (clumsies.js) runs `clumsies hook` on session.created, chat.message, session.idle, and before and after each tool that can write (tool.execute.before, where the gate refuses a call by throwing, and tool.execute.after).",
				"opencode cannot refuse a stop: when the stop hook blocks, the plugin sends its request to report as a new prompt. `opencode run` exits when the session is idle, before that prompt runs: there the request is lost and the prompt stays unreported (`opencode serve` and the TUI run it).",
				"The session-start context reaches the agent through the system prompt (experimental.chat.system.transform).",
			},
		}
	},
	read: readCommon,
	answer: func(ev Event, a Answer) []byte {
		switch {
		case ev == SessionStart && a.Context != "":
			return jsonLine(map[string]string{"context": a.Context})
		case ev == Stop && a.Block:
			return jsonLine(map[string]string{"decision": "block", "reason": a.Reason})
		}
		return jsonLine(map[string]any{})
	},
	// The plugin throws the reason of a refusal, and adds a warning to
	// the tool's output, which the agent reads.
	tools: &toolHooks{
		gate: func(a Answer) Reply {
			switch {
			case a.Block:
				return stdout(jsonLine(map[string]string{"decision": "block", "reason": a.Reason}))
			case a.Context != "":
				return stdout(jsonLine(map[string]string{"context": a.Context}))
			}
			return stdout(jsonLine(map[string]any{}))
		},
	},
}

package adapt

import (
	"encoding/json"
	"path/filepath"
)

// Windsurf (Cascade): MCP servers only in the user's
// ~/.codeium/windsurf/mcp_config.json as {"mcpServers": {name: {command,
// args}}}; there is no project file. Hooks in .windsurf/hooks.json
// (workspace) or ~/.codeium/windsurf/hooks.json (user) as {"hooks":
// {event: [{command, show_output}]}}, with input {agent_action_name,
// trajectory_id, execution_id, timestamp, tool_info}. It has no session
// start hook, a hook cannot add to the agent's context (a pre-hook can
// only refuse with exit status 2), and post_cascade_response cannot
// refuse a stop: the agent can never learn its trajectory id, so adapt
// wires the MCP server and no hook.
var windsurf = &Host{
	Name:      "windsurf",
	Title:     "Windsurf",
	SessionID: "the Cascade trajectory id (trajectory_id in hook input), which Windsurf never shows the agent",
	plan: func(s Scope, e Env) Plan {
		args := []string{"serve", "--workspace", e.Root}
		if s == User {
			args = []string{"serve"}
		}
		return Plan{
			Files: []File{{Path: filepath.Join(e.Home, ".codeium", "windsurf", "mcp_config.json"),
				json: []jsonEntry{serverEntry("mcpServers", e.command(), args)}}},
			Notes: []string{
				"Windsurf reads MCP servers only from ~/.codeium/windsurf/mcp_config.json, for every workspace: the project entry names this workspace, and adapting another project points it there (--user leaves it to the folder Windsurf starts it in).",
				"Windsurf's hooks (.windsurf/hooks.json) have no session start, cannot add to the agent's context and cannot refuse a stop: adapt wires none, and the agent sets up with the id the META_PROMPT asks for (stats counts it as not announced).",
			},
		}
	},
	read: func(_ Event, raw []byte) (Input, error) {
		var c struct {
			TrajectoryID string `json:"trajectory_id"`
			ToolInfo     struct {
				UserPrompt string `json:"user_prompt"`
			} `json:"tool_info"`
		}
		if err := json.Unmarshal(raw, &c); err != nil {
			return Input{}, err
		}
		return Input{SessionID: c.TrajectoryID, Prompt: c.ToolInfo.UserPrompt}, nil
	},
	answer: func(Event, Answer) []byte { return nil },
	events: []Event{},
}

package adapt

import (
	"encoding/json"
	"path/filepath"
)

// Windsurf (Cascade): MCP servers only in the user's
// ~/.codeium/windsurf/mcp_config.json as {"mcpServers": {name: {command,
// args}}}; there is no project file. Hooks in .windsurf/hooks.json
// (workspace) or ~/.codeium/windsurf/hooks.json (user) as {"hooks":
// {event: [{command, show_output}]}}, run from the workspace's root, with
// input {agent_action_name, trajectory_id, execution_id, timestamp,
// tool_info}. It has no session start hook, a hook cannot add to the
// agent's context and post_cascade_response cannot refuse a stop: the
// agent can never learn its trajectory id from a hook, so adapt wires no
// session hook. Around its tools: pre_write_code and post_write_code
// (tool_info.file_path, edits), pre_run_command and post_run_command
// (tool_info.command_line, cwd). A pre-hook refuses by exiting with status
// 2, and the agent reads its stderr: the gate's reason, which names the
// session id to set up with.
var windsurf = &Host{
	Name:      "windsurf",
	Title:     "Windsurf",
	SessionID: "the Cascade trajectory id (trajectory_id in hook input), which Windsurf never shows the agent (only the gate's refusal names it)",
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
				"Windsurf's hooks have no session start, cannot add to the agent's context and cannot refuse a stop: adapt wires the hooks around its tools (the gate, and the record of what they changed) and none for the session, and the agent sets up with the id the META_PROMPT asks for (stats counts it as not announced).",
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
	tools: &toolHooks{
		file: func(s Scope, e Env) string {
			if s == User {
				return filepath.Join(e.Home, ".codeium", "windsurf", "hooks.json")
			}
			return filepath.Join(e.Root, ".windsurf", "hooks.json")
		},
		// The gate keeps clumsies' exit status, Windsurf's refusal; the
		// user sees what it says (show_output).
		pre: func(e Env) []jsonEntry {
			return []jsonEntry{windsurfEntry("pre_write_code", PreTool, e.statusHookCommand("windsurf", PreTool), true),
				windsurfEntry("pre_run_command", PreTool, e.statusHookCommand("windsurf", PreTool), true)}
		},
		post: func(e Env) []jsonEntry {
			return []jsonEntry{windsurfEntry("post_write_code", PostTool, e.hookCommand("windsurf", PostTool), false),
				windsurfEntry("post_run_command", PostTool, e.hookCommand("windsurf", PostTool), false)}
		},
		// A refusal is exit status 2 and its reason on stderr, which the
		// agent reads; a warning can only reach the user (stderr, shown
		// with show_output).
		gate: func(a Answer) Reply {
			switch {
			case a.Block:
				return Reply{Stderr: a.Reason, Exit: 2}
			case a.Context != "":
				return Reply{Stderr: a.Context}
			}
			return Reply{}
		},
	},
}

// windsurfEntry is a hook entry of Windsurf's layout that runs command
// for ev on event: {command, show_output}.
func windsurfEntry(event string, ev Event, command string, show bool) jsonEntry {
	value := obj{{"command", command}}
	if show {
		value = append(value, kv{"show_output", true})
	}
	return jsonEntry{path: []string{"hooks", event}, value: value, ours: oursFor("windsurf", ev)}
}

package adapt

import (
	"cmp"
	"encoding/json"
	"path/filepath"
)

// Cursor: MCP servers in .cursor/mcp.json (project) or ~/.cursor/mcp.json
// (user), which expand ${workspaceFolder}; hooks in .cursor/hooks.json or
// ~/.cursor/hooks.json as {"version": 1, "hooks": {event: [{command}]}}
// with the events sessionStart, beforeSubmitPrompt and stop. Hook input
// names the chat conversation_id (session_id too on sessionStart), the
// prompt, loop_count (how many automatic follow-ups the stop hook has
// caused) and workspace_roots. sessionStart answers with
// additional_context, beforeSubmitPrompt with {"continue": true}; a stop
// cannot be refused: the stop hook's followup_message is sent as the next
// user message instead. Before a tool, preToolUse (for the file tools a
// matcher names) and beforeShellExecution (command, cwd) refuse with
// {"permission": "deny", "user_message", "agent_message"}; after one,
// afterFileEdit (file_path) and afterShellExecution (command).
var cursor = &Host{
	Name:      "cursor",
	Title:     "Cursor",
	SessionID: "the chat's conversation id (conversation_id in hook input)",
	plan: func(s Scope, e Env) Plan {
		dir := filepath.Dir(cursorHooksFile(s, e))
		names := map[Event]string{SessionStart: "sessionStart", UserPrompt: "beforeSubmitPrompt", Stop: "stop"}
		var hooks []jsonEntry
		for _, ev := range Events() {
			hooks = append(hooks, cursorEntry(names[ev], ev, "", e))
		}
		return Plan{
			Files: []File{
				{Path: filepath.Join(dir, "mcp.json"), json: []jsonEntry{
					serverEntry("mcpServers", e.command(), []string{"serve", "--workspace", "${workspaceFolder}"})}},
				{Path: filepath.Join(dir, "hooks.json"), scaffold: obj{{"version", 1}}, json: hooks},
			},
			Notes: []string{
				"Cursor cannot refuse a stop: the stop hook answers with a followup_message, which Cursor sends as the next user message.",
				"Some Cursor releases do not run sessionStart hooks; there the agent learns to call memsetup with the conversation id from the META_PROMPT alone.",
			},
		}
	},
	read: func(_ Event, raw []byte) (Input, error) {
		var c struct {
			ConversationID string   `json:"conversation_id"`
			SessionID      string   `json:"session_id"`
			Prompt         string   `json:"prompt"`
			Model          string   `json:"model"`
			LoopCount      int      `json:"loop_count"`
			Roots          []string `json:"workspace_roots"`
			Source         string   `json:"source"`
		}
		if err := json.Unmarshal(raw, &c); err != nil {
			return Input{}, err
		}
		in := Input{SessionID: cmp.Or(c.ConversationID, c.SessionID), Prompt: c.Prompt, Model: c.Model,
			Continuing: c.LoopCount > 0, Source: c.Source}
		if len(c.Roots) > 0 {
			in.Dir = c.Roots[0]
		}
		return in, nil
	},
	answer: func(ev Event, a Answer) []byte {
		switch ev {
		case SessionStart:
			if a.Context == "" {
				return jsonLine(map[string]any{})
			}
			return jsonLine(map[string]string{"additional_context": a.Context})
		case UserPrompt:
			return jsonLine(map[string]bool{"continue": true})
		}
		if a.Block {
			return jsonLine(map[string]string{"followup_message": a.Reason})
		}
		return jsonLine(map[string]any{})
	},
	tools: &toolHooks{
		file: cursorHooksFile,
		pre: func(e Env) []jsonEntry {
			return []jsonEntry{cursorEntry("preToolUse", PreTool, cursorWriters, e),
				cursorEntry("beforeShellExecution", PreTool, "", e)}
		},
		post: func(e Env) []jsonEntry {
			return []jsonEntry{cursorEntry("afterFileEdit", PostTool, "", e),
				cursorEntry("afterShellExecution", PostTool, "", e)}
		},
		// The neutral answer and the warning name no permission: an
		// allow would skip the user's own approval of the command.
		gate: func(a Answer) Reply {
			switch {
			case a.Block:
				return stdout(jsonLine(map[string]string{"permission": "deny", "user_message": a.Reason, "agent_message": a.Reason}))
			case a.Context != "":
				return stdout(jsonLine(map[string]string{"user_message": a.Context, "agent_message": a.Context}))
			}
			return stdout(jsonLine(map[string]any{}))
		},
	},
}

// cursorWriters is the matcher of preToolUse: Cursor's tools that change
// files (its shell has beforeShellExecution, so that a command is gated
// once).
const cursorWriters = "Write|StrReplace|Edit|MultiEdit|Delete|EditNotebook"

// cursorEntry is a hook entry of Cursor's layout that runs clumsies' hook
// for ev on event, for the tools matcher names (every call when it is
// empty): {command, matcher}.
func cursorEntry(event string, ev Event, matcher string, e Env) jsonEntry {
	value := obj{{"command", e.hookCommand("cursor", ev)}}
	if matcher != "" {
		value = append(value, kv{"matcher", matcher})
	}
	return jsonEntry{path: []string{"hooks", event}, value: value, ours: oursFor("cursor", ev)}
}

// cursorHooksFile is Cursor's hooks.json (scope s).
func cursorHooksFile(s Scope, e Env) string {
	if s == User {
		return filepath.Join(e.Home, ".cursor", "hooks.json")
	}
	return filepath.Join(e.Root, ".cursor", "hooks.json")
}

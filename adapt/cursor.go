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
// user message instead.
var cursor = &Host{
	Name:      "cursor",
	Title:     "Cursor",
	SessionID: "the chat's conversation id (conversation_id in hook input)",
	plan: func(s Scope, e Env) Plan {
		dir := filepath.Join(e.Root, ".cursor")
		if s == User {
			dir = filepath.Join(e.Home, ".cursor")
		}
		names := map[Event]string{SessionStart: "sessionStart", UserPrompt: "beforeSubmitPrompt", Stop: "stop"}
		var hooks []jsonEntry
		for _, ev := range Events() {
			hooks = append(hooks, jsonEntry{path: []string{"hooks", names[ev]},
				value: obj{{"command", e.hookCommand("cursor", ev)}}, ours: oursFor("cursor", ev)})
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
}

package adapt

import "path/filepath"

// Claude Code: MCP servers in .mcp.json (project) or ~/.claude.json
// (user); hooks in .claude/settings.json or ~/.claude/settings.json, as
// event -> [{matcher, hooks: [{type: command, command, timeout}]}]. Hook
// input is snake_case JSON (session_id, source, model, prompt,
// stop_hook_active, cwd); SessionStart answers with
// hookSpecificOutput.additionalContext, Stop refuses with
// {"decision": "block", "reason"}. .mcp.json expands ${VAR:-default}.
// PreToolUse (the gate) and PostToolUse run for the tools that can write:
// Write, Edit, MultiEdit, NotebookEdit and Bash (tool_input.command);
// PreToolUse refuses with hookSpecificOutput.permissionDecision deny. The
// hooks' command runs through sh; only its status 2 blocks.
var claudeCode = &Host{
	Name:      "claude-code",
	Title:     "Claude Code",
	SessionID: "the session id (session_id in hook input)",
	plan: func(s Scope, e Env) Plan {
		mcp := filepath.Join(e.Root, ".mcp.json")
		settings := filepath.Join(e.Root, ".claude", "settings.json")
		args := []string{"serve", "--workspace", "${CLAUDE_PROJECT_DIR:-.}"}
		if s == User {
			mcp = filepath.Join(e.Home, ".claude.json")
			settings = filepath.Join(e.Home, ".claude", "settings.json")
			args = []string{"serve"}
		}
		p := Plan{Files: []File{
			{Path: mcp, json: []jsonEntry{serverEntry("mcpServers", e.command(), args)}},
			{Path: settings, json: commandHooks("claude-code", e, map[Event]string{
				SessionStart: "SessionStart", UserPrompt: "UserPromptSubmit", Stop: "Stop"})},
		}}
		if s == User {
			p.Notes = []string{"Claude Code rewrites ~/.claude.json while it runs: adapt it with Claude Code closed."}
		} else {
			p.Notes = []string{"The interactive `claude` asks once to approve the clumsies server of the project's .mcp.json (it records the answer in .claude/settings.local.json, enabledMcpjsonServers): approve it, or the agent has no clumsies tools."}
		}
		return p
	},
	read: readCommon,
	answer: func(ev Event, a Answer) []byte {
		switch {
		case ev == SessionStart && a.Context != "":
			return hookSpecific("SessionStart", a.Context)
		case ev == PostTool && a.Context != "":
			return hookSpecific("PostToolUse", a.Context)
		case ev == Stop && a.Block:
			return jsonLine(map[string]string{"decision": "block", "reason": a.Reason})
		}
		return nil
	},
	tools: &toolHooks{
		file: settingsIn(".claude"),
		pre: func(e Env) []jsonEntry {
			return []jsonEntry{claudeGroup("claude-code", "PreToolUse", PreTool, claudeWriters, e)}
		},
		post: func(e Env) []jsonEntry {
			return []jsonEntry{claudeGroup("claude-code", "PostToolUse", PostTool, claudeWriters, e)}
		},
		gate: permissionDecision,
	},
}

// claudeWriters is the matcher of Claude Code's tools that can write.
// Copilot CLI runs Claude Code's hooks with the names Edit, Write and
// Bash.
const claudeWriters = "Write|Edit|MultiEdit|NotebookEdit|Bash"

// serverEntry is the stdio server entry under key (mcpServers).
func serverEntry(key, command string, args []string) jsonEntry {
	return jsonEntry{path: []string{key, "clumsies"}, value: obj{{"command", command}, {"args", args}}}
}

// commandHooks are the hook groups of Claude Code's layout, which Codex
// shares: event -> [{hooks: [{type: command, command, timeout}]}].
func commandHooks(host string, e Env, names map[Event]string) []jsonEntry {
	var out []jsonEntry
	for _, ev := range Events() {
		out = append(out, claudeGroup(host, names[ev], ev, "", e))
	}
	return out
}

// claudeGroup is the hook group of Claude Code's layout that runs
// clumsies' hook for ev on the host's event, for the tools matcher names
// (every tool when it is empty): {matcher, hooks: [{type: command,
// command, timeout}]}.
func claudeGroup(host, event string, ev Event, matcher string, e Env) jsonEntry {
	var value obj
	if matcher != "" {
		value = append(value, kv{"matcher", matcher})
	}
	value = append(value, kv{"hooks", []any{obj{
		{"type", "command"}, {"command", e.hookCommand(host, ev)}, {"timeout", 30}}}})
	return jsonEntry{path: []string{"hooks", event}, value: value, ours: oursFor(host, ev)}
}

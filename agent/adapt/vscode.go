package adapt

import (
	"path/filepath"
	"runtime"
)

// VS Code (Copilot agent mode): MCP servers in .vscode/mcp.json (project)
// or the user's mcp.json as {"servers": {name: {type: stdio, command,
// args}}}, which expand ${workspaceFolder}. Hooks (Preview) in
// .github/hooks/*.json (project) or ~/.copilot/hooks (user) as {"hooks":
// {event: [{type: command, command, timeout}]}} with Claude Code's event
// names; VS Code also runs Claude Code's hooks (.claude/settings.json) and
// Copilot CLI's (.github/hooks, its lowerCamelCase events converted).
// Input has the common fields timestamp, cwd, sessionId, hookEventName,
// transcript_path, and source, prompt or stop_hook_active per event;
// SessionStart answers with hookSpecificOutput.additionalContext, Stop
// refuses with hookSpecificOutput {decision: block, reason}. PreToolUse
// and PostToolUse run for every tool (VS Code ignores matchers) with
// tool_name and tool_input: editFiles and createFile name their files in
// tool_input.files, runTerminalCommand its command line in
// tool_input.command. PreToolUse refuses with Claude Code's
// hookSpecificOutput.permissionDecision deny.
var vscode = &Host{
	Name:      "vscode",
	Title:     "VS Code",
	SessionID: "the chat session id (sessionId in hook input)",
	plan: func(s Scope, e Env) Plan {
		mcp := filepath.Join(e.Root, ".vscode", "mcp.json")
		hooks := vscodeHooksFile(s, e)
		if s == User {
			mcp = filepath.Join(vscodeUserDir(e.Home), "mcp.json")
		}
		names := map[Event]string{SessionStart: "SessionStart", UserPrompt: "UserPromptSubmit", Stop: "Stop"}
		var entries []jsonEntry
		for _, ev := range Events() {
			entries = append(entries, vscodeEntry(names[ev], ev, e))
		}
		return Plan{
			Files: []File{
				{Path: mcp, json: []jsonEntry{{path: []string{"servers", "clumsies"}, value: obj{{"type", "stdio"},
					{"command", e.command()}, {"args", []string{"serve", "--workspace", "${workspaceFolder}"}}}}}},
				{Path: hooks, json: entries},
			},
			Notes: []string{
				"VS Code's agent hooks are in Preview: they run only where hooks are enabled (your organisation may turn them off).",
				"VS Code also runs the hooks of .claude/settings.json and of Copilot CLI's .github/hooks: in a repository wired for claude-code or copilot as well, VS Code runs each set (Claude Code's fail open on VS Code's input and record nothing; Copilot CLI's record the session a second time, as copilot). Wire only one for VS Code, or turn the others off in the chat.hookFilesLocations setting.",
			},
		}
	},
	read: func(ev Event, raw []byte) (Input, error) { return copilot.read(ev, raw) },
	answer: func(ev Event, a Answer) []byte {
		switch {
		case ev == SessionStart && a.Context != "":
			return hookSpecific("SessionStart", a.Context)
		case ev == PostTool && a.Context != "":
			return hookSpecific("PostToolUse", a.Context)
		case ev == Stop && a.Block:
			return jsonLine(map[string]any{"hookSpecificOutput": map[string]string{
				"hookEventName": "Stop", "decision": "block", "reason": a.Reason}})
		}
		return nil
	},
	tools: &toolHooks{
		file: vscodeHooksFile,
		pre:  func(e Env) []jsonEntry { return []jsonEntry{vscodeEntry("PreToolUse", PreTool, e)} },
		post: func(e Env) []jsonEntry { return []jsonEntry{vscodeEntry("PostToolUse", PostTool, e)} },
		gate: permissionDecision,
	},
}

// vscodeEntry is a hook entry of VS Code's layout that runs clumsies'
// hook for ev on event: {type: command, command, timeout}.
func vscodeEntry(event string, ev Event, e Env) jsonEntry {
	return jsonEntry{path: []string{"hooks", event},
		value: obj{{"type", "command"}, {"command", e.hookCommand("vscode", ev)}, {"timeout", 30}},
		ours:  oursFor("vscode", ev)}
}

// vscodeHooksFile is the file of clumsies' VS Code hooks (scope s).
func vscodeHooksFile(s Scope, e Env) string {
	if s == User {
		return filepath.Join(e.Home, ".copilot", "hooks", "clumsies-vscode.json")
	}
	return filepath.Join(e.Root, ".github", "hooks", "clumsies-vscode.json")
}

// vscodeUserDir is VS Code's user settings folder under home.
func vscodeUserDir(home string) string {
	switch runtime.GOOS {
	case "darwin":
		return filepath.Join(home, "Library", "Application Support", "Code", "User")
	case "windows":
		return filepath.Join(home, "AppData", "Roaming", "Code", "User")
	}
	return filepath.Join(home, ".config", "Code", "User")
}

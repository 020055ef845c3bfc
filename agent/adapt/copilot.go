package adapt

import (
	"bytes"
	"cmp"
	"encoding/json"
	"os"
	"path/filepath"
)

// GitHub Copilot CLI: hooks in .github/hooks/*.json (project) or
// ~/.copilot/hooks/*.json (user) as {"version": 1, "hooks": {event:
// [{type: command, bash, timeoutSec}]}}, with the events sessionStart,
// userPromptSubmitted and agentStop (postToolUse and preToolUse in
// posttool_plan.go and pretool.go); MCP servers in .github/mcp.json or
// .mcp.json (project) and ~/.copilot/mcp-config.json (user) as
// {"mcpServers": {name: {type: local, command, args, tools}}}. Its own
// hooks get camelCase input (sessionId, timestamp in ms, cwd, source,
// initialPrompt, prompt). It also runs Claude Code's hooks of
// .claude/settings.json, with Claude's snake_case input and COPILOT_CLI=1
// in the environment. It reads only a top-level additionalContext (never
// hookSpecificOutput); agentStop refuses with {"decision": "block",
// "reason"}, and the reason comes back as a new userPromptSubmitted.
// preToolUse (the gate) and postToolUse run for the tools a matcher names
// (a regular expression on the tool's name): edit, create, apply_patch,
// str_replace_editor, and bash (toolArgs.command; powershell on Windows);
// preToolUse refuses with a top-level permissionDecision deny. A command
// hook of preToolUse that fails or exits non-zero refuses the tool.
var copilot = &Host{
	Name:      "copilot",
	Title:     "GitHub Copilot CLI",
	SessionID: "the Copilot CLI session id (sessionId in hook input)",
	plan: func(s Scope, e Env) Plan {
		hooks := copilotHooksFile(s, e)
		mcp := filepath.Join(e.Root, ".github", "mcp.json")
		if s == User {
			mcp = filepath.Join(e.Home, ".copilot", "mcp-config.json")
		}
		names := map[Event]string{SessionStart: "sessionStart", UserPrompt: "userPromptSubmitted", Stop: "agentStop"}
		var entries []jsonEntry
		for _, ev := range Events() {
			entries = append(entries, copilotEntry(names[ev], ev, "", e))
		}
		return Plan{
			Files: []File{
				{Path: mcp, json: []jsonEntry{{path: []string{"mcpServers", "clumsies"},
					value: obj{{"type", "local"}, {"command", e.command()}, {"args", []string{"serve"}}, {"tools", []string{"*"}}}}}},
				{Path: hooks, scaffold: obj{{"version", 1}}, json: entries},
			},
			Notes: []string{
				"Copilot CLI loads a project's MCP servers and hooks only in a folder you trust (it asks on the first start there).",
				"Copilot CLI also runs Claude Code's hooks (.claude/settings.json). Under Copilot they record the session as copilot and answer in Copilot's form; in a repository wired for both, Copilot's own hooks record it and Claude Code's stay silent, so a session is recorded once.",
				"When the stop hook blocks, Copilot CLI sends its reason back as a new prompt: clumsies does not count it as the user's.",
			},
		}
	},
	read: func(_ Event, raw []byte) (Input, error) {
		var c struct {
			SessionID      string `json:"sessionId"`
			SnakeSessionID string `json:"session_id"` // Claude Code's hooks, run by Copilot
			Source         string `json:"source"`
			Prompt         string `json:"prompt"`
			Cwd            string `json:"cwd"`
			StopHookActive bool   `json:"stop_hook_active"`
		}
		if err := json.Unmarshal(raw, &c); err != nil {
			return Input{}, err
		}
		return Input{SessionID: cmp.Or(c.SessionID, c.SnakeSessionID), Source: c.Source, Prompt: c.Prompt,
			Continuing: c.StopHookActive, Dir: c.Cwd}, nil
	},
	answer: func(ev Event, a Answer) []byte {
		switch {
		case (ev == SessionStart || ev == PostTool) && a.Context != "":
			return jsonLine(map[string]string{"additionalContext": a.Context})
		case ev == Stop && a.Block:
			return jsonLine(map[string]string{"decision": "block", "reason": a.Reason})
		}
		return nil
	},
	tools: &toolHooks{
		file: copilotHooksFile,
		pre: func(e Env) []jsonEntry {
			return []jsonEntry{copilotEntry("preToolUse", PreTool, copilotWriters, e)}
		},
		post: func(e Env) []jsonEntry {
			return []jsonEntry{copilotEntry("postToolUse", PostTool, copilotWriters, e)}
		},
		// Copilot CLI reads the decision at the top level, never
		// hookSpecificOutput.
		gate: func(a Answer) Reply {
			switch {
			case a.Block:
				return stdout(jsonLine(map[string]string{"permissionDecision": "deny", "permissionDecisionReason": a.Reason}))
			case a.Context != "":
				return stdout(jsonLine(map[string]string{"additionalContext": a.Context}))
			}
			return Reply{}
		},
	},
}

// copilotWriters is the matcher of the tools that can write, by the names
// Copilot CLI gives its own hooks, and the ones it gives Claude Code's
// (the hooks of .github/hooks/ that VS Code also runs get VS Code's, and
// VS Code ignores matchers). Each name stands alone, so the matcher
// holds whether Copilot CLI matches the whole name or a part of it.
const copilotWriters = "edit|create|write|apply_patch|str_replace_editor|bash|powershell|Edit|Write|MultiEdit|Bash"

// copilotEntry is a hook entry of Copilot CLI's layout that runs
// clumsies' hook for ev on event, for the tools matcher names (every
// tool when it is empty): {type: command, matcher, bash, timeoutSec}.
func copilotEntry(event string, ev Event, matcher string, e Env) jsonEntry {
	value := obj{{"type", "command"}}
	if matcher != "" {
		value = append(value, kv{"matcher", matcher})
	}
	value = append(value, kv{"bash", e.hookCommand("copilot", ev)}, kv{"timeoutSec", 30})
	return jsonEntry{path: []string{"hooks", event}, value: value, ours: oursFor("copilot", ev)}
}

// copilotHooksFile is the file of clumsies' Copilot CLI hooks (scope s).
func copilotHooksFile(s Scope, e Env) string {
	if s == User {
		return filepath.Join(e.Home, ".copilot", "hooks", "clumsies.json")
	}
	return filepath.Join(e.Root, ".github", "hooks", "clumsies.json")
}

// RunBy returns the host that really runs a hook configured for h:
// Copilot CLI runs the hooks it finds for other hosts (Claude Code's
// .claude/settings.json, VS Code's file in .github/hooks) with
// COPILOT_CLI=1 in their environment.
func RunBy(h *Host, getenv func(string) string) *Host {
	if (h == claudeCode || h == vscode) && getenv("COPILOT_CLI") == "1" {
		return copilot
	}
	return h
}

// CopilotHooked reports whether Copilot CLI's own clumsies hooks are
// wired for the workspace at root or for the user at home (an empty home
// is not looked at). Then they record Copilot's sessions, and the other
// hosts' hooks that Copilot also runs must stay silent.
func CopilotHooked(root, home string) bool {
	dirs := []string{filepath.Join(root, ".github", "hooks")}
	if home != "" {
		dirs = append(dirs, filepath.Join(home, ".copilot", "hooks"))
	}
	for _, dir := range dirs {
		files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
		for _, f := range files {
			if b, err := os.ReadFile(f); err == nil && bytes.Contains(b, []byte(" --host copilot")) {
				return true
			}
		}
	}
	return false
}

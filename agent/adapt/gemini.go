package adapt

import (
	"path/filepath"
	"strings"
)

// Gemini CLI: MCP servers and hooks both in .gemini/settings.json
// (project) or ~/.gemini/settings.json (user). Hooks are event ->
// [{matcher, hooks: [{name, type: command, command, timeout (ms)}]}]; the
// events are SessionStart, BeforeAgent (a prompt was submitted) and
// AfterAgent (the agent's turn ended). Input is snake_case (session_id,
// source, prompt, stop_hook_active, cwd); stdout must be JSON only.
// SessionStart answers with hookSpecificOutput.additionalContext;
// AfterAgent refuses with {"decision": "deny", "reason"}, which Gemini
// sends to the agent as a new prompt: BeforeAgent fires again with that
// reason as its prompt. Gemini puts the session-start context in front of
// the first prompt, as <hook_context>...</hook_context> and a blank line.
// BeforeTool (the gate) and AfterTool run for write_file, replace and
// run_shell_command (tool_input.command); BeforeTool refuses with
// {"decision": "deny", "reason"}, and AfterTool reports a failed tool in
// tool_response.error.
var geminiCLI = &Host{
	Name:      "gemini-cli",
	Title:     "Gemini CLI",
	SessionID: "the session id (session_id in hook input)",
	plan: func(s Scope, e Env) Plan {
		settings := filepath.Join(e.Root, ".gemini", "settings.json")
		if s == User {
			settings = filepath.Join(e.Home, ".gemini", "settings.json")
		}
		names := map[Event]string{SessionStart: "SessionStart", UserPrompt: "BeforeAgent", Stop: "AfterAgent"}
		entries := []jsonEntry{serverEntry("mcpServers", e.command(), []string{"serve"})}
		for _, ev := range Events() {
			entries = append(entries, geminiGroup(names[ev], ev, "", e))
		}
		return Plan{
			Files: []File{{Path: settings, json: entries}},
			Notes: []string{
				"settings.json has no project path variable for MCP servers: `clumsies serve` finds the workspace from the folder Gemini CLI runs in.",
				"Gemini CLI releases from before hooks were on by default need hooks enabled in settings.json (hooksConfig.enabled).",
			},
		}
	},
	read: func(ev Event, raw []byte) (Input, error) {
		in, err := readCommon(ev, raw)
		in.Prompt = withoutHookContext(in.Prompt)
		return in, err
	},
	answer: func(ev Event, a Answer) []byte {
		switch {
		case ev == SessionStart && a.Context != "":
			return hookSpecific("SessionStart", a.Context)
		case ev == PostTool && a.Context != "":
			return hookSpecific("AfterTool", a.Context)
		case ev == Stop && a.Block:
			return jsonLine(map[string]string{"decision": "deny", "reason": a.Reason})
		}
		return jsonLine(map[string]any{})
	},
	tools: &toolHooks{
		file: settingsIn(".gemini"),
		pre: func(e Env) []jsonEntry {
			return []jsonEntry{geminiGroup("BeforeTool", PreTool, geminiWriters, e)}
		},
		post: func(e Env) []jsonEntry {
			return []jsonEntry{geminiGroup("AfterTool", PostTool, geminiWriters, e)}
		},
		// BeforeTool has no context for the agent: a warning is a
		// systemMessage, which Gemini CLI shows the user.
		gate: func(a Answer) Reply {
			switch {
			case a.Block:
				return stdout(jsonLine(map[string]string{"decision": "deny", "reason": a.Reason}))
			case a.Context != "":
				return stdout(jsonLine(map[string]string{"systemMessage": a.Context}))
			}
			return stdout(jsonLine(map[string]any{}))
		},
	},
}

// geminiWriters is the matcher of Gemini CLI's tools that can write.
const geminiWriters = "write_file|replace|run_shell_command"

// geminiGroup is the hook group of Gemini CLI's layout that runs
// clumsies' hook for ev on event, for the tools matcher names (every tool
// when it is empty): {matcher, hooks: [{name, type: command, command,
// timeout (ms)}]}.
func geminiGroup(event string, ev Event, matcher string, e Env) jsonEntry {
	var value obj
	if matcher != "" {
		value = append(value, kv{"matcher", matcher})
	}
	value = append(value, kv{"hooks", []any{obj{{"name", "clumsies-" + string(ev)}, {"type", "command"},
		{"command", e.hookCommand("gemini-cli", ev)}, {"timeout", 30000}}}})
	return jsonEntry{path: []string{"hooks", event}, value: value, ours: oursFor("gemini-cli", ev)}
}

// withoutHookContext returns the user's prompt without the session-start
// context blocks that Gemini CLI puts in front of it.
func withoutHookContext(prompt string) string {
	const open, end = "<hook_context>", "</hook_context>"
	for strings.HasPrefix(prompt, open) {
		i := strings.Index(prompt, end)
		if i < 0 {
			break
		}
		prompt = strings.TrimLeft(prompt[i+len(end):], "\r\n")
	}
	return prompt
}

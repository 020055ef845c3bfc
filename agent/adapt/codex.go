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
// config.toml expands no variables. Codex ignores a project's config.toml
// and hooks until the project is trusted ([projects."<dir>"] trust_level =
// "trusted" in ~/.codex/config.toml), and under `codex exec` (approval
// policy never) it refuses every MCP call of a server whose tools are not
// approved up front (default_tools_approval_mode = "approve"). PreToolUse
// (since 0.123) runs before Bash, where a patch arrives too
// (tool_input.command, possibly apply_patch <<'EOF' *** Begin Patch ...)
// and refuses with Claude Code's hookSpecificOutput.permissionDecision;
// PostToolUse runs after every tool.
var codex = &Host{
	Name:      "codex",
	Title:     "Codex",
	SessionID: "the Codex session (thread) id (session_id in hook input)",
	plan: func(s Scope, e Env) Plan {
		dir := filepath.Join(e.Root, ".codex")
		if s == User {
			dir = filepath.Join(e.Home, ".codex")
		}
		// The tools only read rules and add records: approved up front, or
		// `codex exec` (approval policy "never") fails every call.
		body := fmt.Sprintf("[mcp_servers.clumsies]\ncommand = %s\nargs = [\"serve\"]\ndefault_tools_approval_mode = \"approve\"\n",
			strconv.Quote(e.command()))
		trust := "Codex reads a project's .codex/config.toml and runs its hooks only in a trusted project."
		if s == Project {
			trust += fmt.Sprintf(" Accept Codex's trust prompt in this folder, or add these lines to ~/.codex/config.toml:\n  [projects.%s]\n  trust_level = \"trusted\"", strconv.Quote(e.Root))
		}
		return Plan{
			Files: []File{
				{Path: filepath.Join(dir, "config.toml"), toml: &tomlEntry{host: "codex", body: body, tables: []string{"mcp_servers.clumsies"}}},
				{Path: filepath.Join(dir, "hooks.json"), json: commandHooks("codex", e, map[Event]string{
					SessionStart: "SessionStart", UserPrompt: "UserPromptSubmit", Stop: "Stop"})},
			},
			Notes: []string{
				"config.toml has no path variable: `clumsies serve` finds the workspace from the folder Codex runs in.",
				trust,
				"Codex runs a hook only once you trust it (Codex lists new hooks for review), and asks again for a hook adapt has changed.",
				"The server entry approves clumsies' tools (default_tools_approval_mode = \"approve\"): they only read rules and record calls, and without it every call fails under `codex exec`.",
				"Codex releases from before hooks were on by default need `hooks = true` under [features] in config.toml.",
			},
		}
	},
	read: readCommon,
	answer: func(ev Event, a Answer) []byte {
		return claudeCode.answer(ev, a)
	},
	tools: &toolHooks{
		file: codexHooksFile,
		// Codex names its shell Bash, and matches Edit and Write to its
		// apply_patch.
		pre: func(e Env) []jsonEntry {
			return []jsonEntry{claudeGroup("codex", "PreToolUse", PreTool, "Bash|apply_patch|Edit|Write", e)}
		},
		// Codex names its patch tool differently across releases
		// (apply_patch, or a shell call of it): no matcher, the hook reads
		// the patch.
		post: func(e Env) []jsonEntry {
			return []jsonEntry{claudeGroup("codex", "PostToolUse", PostTool, "", e)}
		},
		gate: permissionDecision,
	},
}

// codexHooksFile is Codex's hooks.json (scope s).
func codexHooksFile(s Scope, e Env) string {
	if s == User {
		return filepath.Join(e.Home, ".codex", "hooks.json")
	}
	return filepath.Join(e.Root, ".codex", "hooks.json")
}

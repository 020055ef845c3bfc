package adapt

import "path/filepath"

// PreTool is the hook event a host runs before a tool: clumsies' gate
// (docs/rules.md). Every host whose hook before a tool can refuse it has
// one, for the tools that change files and for its shell tool: Claude
// Code (PreToolUse), Codex (PreToolUse), Gemini CLI (BeforeTool), Copilot
// CLI (preToolUse), Cursor (preToolUse, beforeShellExecution), VS Code
// (PreToolUse), Windsurf (pre_write_code, pre_run_command) and opencode
// (its plugin's tool.execute.before). It is not one of Events(), the
// events every host's hooks run.
const PreTool Event = "pre-tool"

// HasPreTool reports whether h has a pre-tool hook.
func (h *Host) HasPreTool() bool { return h.tools != nil && h.tools.gate != nil }

// settingsIn returns where settings.json lives in folder dir of the
// project, or of the home folder (scope User).
func settingsIn(dir string) func(s Scope, e Env) string {
	return func(s Scope, e Env) string {
		if s == User {
			return filepath.Join(e.Home, dir, "settings.json")
		}
		return filepath.Join(e.Root, dir, "settings.json")
	}
}

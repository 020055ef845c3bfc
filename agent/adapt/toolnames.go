package adapt

import "strings"

// The hosts' names of the tools that can change the working tree, lower
// cased: a host's hook is read the same whichever host's hooks it runs
// (Copilot CLI runs Claude Code's, VS Code runs Claude Code's and Copilot
// CLI's, Cursor loads Claude Code's), and a tool name is compared without
// its case (Copilot CLI hands its own hooks edit, and Claude Code's hooks
// Edit).

// fileTools are the tools that change the files their arguments name:
//
//   - Claude Code: Write, Edit, MultiEdit, NotebookEdit
//   - Codex: apply_patch (the files are the patch's headers)
//   - Gemini CLI: write_file, replace
//   - Copilot CLI: create, edit, apply_patch, str_replace_editor (and
//     its commands str_replace, insert)
//   - Cursor (preToolUse): Write, StrReplace, Delete, Edit, MultiEdit,
//     EditNotebook
//   - VS Code: editFiles, createFile as its docs name them; the names its
//     agent gives the model (create_file, replace_string_in_file,
//     multi_replace_string_in_file, insert_edit_into_file) are read too
//   - opencode: write, edit, multiedit, patch
var fileTools = set(
	"write", "edit", "multiedit", "notebookedit",
	"apply_patch", "patch",
	"write_file", "replace",
	"create", "str_replace_editor", "str_replace", "insert", "multi_edit",
	"strreplace", "delete", "editnotebook",
	"editfiles", "createfile", "create_file", "replace_string_in_file",
	"multi_replace_string_in_file", "insert_edit_into_file",
)

// shellTools are the tools that run a shell command line, which may write
// any file (tool_input.command, or the host's own field):
//
//   - Claude Code, Codex and Copilot CLI: Bash (Copilot CLI: bash, or
//     powershell on Windows)
//   - Gemini CLI: run_shell_command
//   - Cursor: Shell (preToolUse), and its beforeShellExecution hook
//   - VS Code: runTerminalCommand as its docs name it, run_in_terminal
//     as its agent names it
//   - opencode: bash
//   - Windsurf: its pre_run_command and post_run_command hooks
var shellTools = set(
	"bash", "powershell", "shell", "run_shell_command",
	"runterminalcommand", "run_in_terminal",
	"exec_command", "shell_command", "local_shell",
)

// isFileTool reports whether the tool named name changes the files its
// arguments name.
func isFileTool(name string) bool { return fileTools[strings.ToLower(name)] }

// isShellTool reports whether the tool named name runs a command line.
func isShellTool(name string) bool { return shellTools[strings.ToLower(name)] }

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

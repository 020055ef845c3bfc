package adapt

import (
	"cmp"
	"encoding/json"
	"slices"
	"strings"
)

// toolCall is every shape a hook's input about a tool call comes in, before
// the tool (pre-tool) or after it (post-tool):
//
//   - the snake_case of Claude Code, Codex, Gemini CLI, Cursor's
//     preToolUse, VS Code (with a camelCase sessionId) and the opencode
//     plugin: tool_name, tool_input, tool_use_id, transcript_path,
//     tool_response;
//   - Copilot CLI's camelCase: toolName, toolArgs (a JSON string),
//     toolResult;
//   - Cursor's own events: afterFileEdit (file_path at the top),
//     beforeShellExecution and afterShellExecution (command, cwd at the
//     top), each named by hook_event_name;
//   - Windsurf's: agent_action_name (pre_write_code, pre_run_command, ...)
//     and tool_info (file_path; command_line, cwd).
type toolCall struct {
	SessionID      string          `json:"session_id"`
	ConversationID string          `json:"conversation_id"`
	SessionIDCamel string          `json:"sessionId"`
	TrajectoryID   string          `json:"trajectory_id"`
	ToolName       string          `json:"tool_name"`
	ToolNameCamel  string          `json:"toolName"`
	ToolInput      json.RawMessage `json:"tool_input"`
	ToolArgs       json.RawMessage `json:"toolArgs"`
	ToolUseID      string          `json:"tool_use_id"`
	ToolCallID     string          `json:"toolCallId"`
	Transcript     string          `json:"transcript_path"`
	TranscriptCaml string          `json:"transcriptPath"`
	ToolResponse   json.RawMessage `json:"tool_response"`
	ToolResult     struct {
		ResultType string `json:"resultType"`
	} `json:"toolResult"`
	HookEventName string   `json:"hook_event_name"`
	FilePath      string   `json:"file_path"`
	Command       string   `json:"command"`
	Cwd           string   `json:"cwd"`
	Roots         []string `json:"workspace_roots"`
	ActionName    string   `json:"agent_action_name"`
	ToolInfo      struct {
		FilePath    string `json:"file_path"`
		CommandLine string `json:"command_line"`
		Cwd         string `json:"cwd"`
	} `json:"tool_info"`
}

// pathKeys are the keys of a tool's arguments that name the file it
// changes, in the hosts' spellings.
var pathKeys = []string{"file_path", "notebook_path", "filePath", "path", "absolute_path"}

// readToolCall reads a hook's input about a tool call, whatever the host:
// the tool's name (for a host whose hook names no tool, the hook's own
// event: Cursor's afterFileEdit, Windsurf's pre_write_code), the files a
// file-changing tool names (as the host gave them: absolute or relative to
// Dir; a patch's headers in any argument), the command line of a shell
// tool, the call's id, the transcript, and whether the host reports the
// tool as failed (post-tool).
func readToolCall(raw []byte) (Input, error) {
	var c toolCall
	if err := json.Unmarshal(raw, &c); err != nil {
		return Input{}, err
	}
	in := Input{
		SessionID:  cmp.Or(c.ConversationID, c.SessionID, c.SessionIDCamel, c.TrajectoryID),
		Tool:       cmp.Or(c.ToolName, c.ToolNameCamel),
		Dir:        cmp.Or(c.Cwd, c.ToolInfo.Cwd),
		ToolUseID:  cmp.Or(c.ToolUseID, c.ToolCallID),
		Transcript: cmp.Or(c.Transcript, c.TranscriptCaml),
		Failed:     failed(c.ToolResponse, c.ToolResult.ResultType),
	}
	if in.Dir == "" && len(c.Roots) > 0 {
		in.Dir = c.Roots[0]
	}
	args := argsObject(cmp.Or(string(c.ToolInput), string(c.ToolArgs)))
	var paths []string
	switch {
	case c.ActionName != "": // Windsurf: the event names the action
		in.Tool = c.ActionName
		if strings.HasSuffix(c.ActionName, "_write_code") && c.ToolInfo.FilePath != "" {
			paths = append(paths, c.ToolInfo.FilePath)
		}
		if strings.HasSuffix(c.ActionName, "_run_command") {
			in.Command = c.ToolInfo.CommandLine
		}
	case c.HookEventName == "beforeShellExecution" || c.HookEventName == "afterShellExecution":
		in.Tool, in.Command = c.HookEventName, c.Command
	case in.Tool == "" && c.FilePath != "": // Cursor's afterFileEdit: every call is an edit
		in.Tool = cmp.Or(c.HookEventName, "afterFileEdit")
		paths = append(paths, c.FilePath)
	}
	if isShellTool(in.Tool) {
		in.Command = commandLine(args["command"])
	}
	if isFileTool(in.Tool) {
		paths = append(paths, namedPaths(args)...)
	}
	paths = append(paths, patchPaths(args)...)
	if len(paths) > 0 {
		slices.Sort(paths)
		in.Files = slices.Compact(paths)
	}
	return in, nil
}

// namedPaths returns the paths a file tool's arguments name: one under
// any of pathKeys, or a list of them (VS Code's files).
func namedPaths(args map[string]any) []string {
	var out []string
	for _, k := range pathKeys {
		if s, ok := args[k].(string); ok && s != "" {
			out = append(out, s)
		}
	}
	if files, ok := args["files"].([]any); ok {
		for _, f := range files {
			if s, ok := f.(string); ok && s != "" {
				out = append(out, s)
			}
		}
	}
	return out
}

// commandLine is a shell tool's command: a string, or an argv list
// joined by spaces.
func commandLine(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case []any:
		var words []string
		for _, w := range v {
			if s, ok := w.(string); ok {
				words = append(words, s)
			}
		}
		return strings.Join(words, " ")
	}
	return ""
}

// failed reports whether a post-tool input says the tool failed: Claude
// Code's tool_response with success false or is_error, Gemini CLI's
// tool_response.error, Copilot CLI's toolResult.resultType failure or
// denied.
func failed(response json.RawMessage, resultType string) bool {
	if resultType == "failure" || resultType == "denied" {
		return true
	}
	var r struct {
		Success *bool           `json:"success"`
		IsError bool            `json:"is_error"`
		Error   json.RawMessage `json:"error"`
	}
	if json.Unmarshal(response, &r) != nil {
		return false // absent, or not an object (Codex's text)
	}
	e := strings.TrimSpace(string(r.Error))
	return r.Success != nil && !*r.Success || r.IsError || e != "" && e != "null" && e != `""` && e != "false"
}

// argsObject decodes a tool's arguments: an object, or a JSON string that
// holds one (Copilot CLI's toolArgs), or a bare string (a patch).
func argsObject(raw string) map[string]any {
	if raw == "" {
		return nil
	}
	var v any
	if json.Unmarshal([]byte(raw), &v) != nil {
		return nil
	}
	if s, ok := v.(string); ok {
		if m := argsObject(s); m != nil {
			return m
		}
		return map[string]any{"input": s}
	}
	m, _ := v.(map[string]any)
	return m
}

// patchPaths returns the files named by the headers of a patch in the
// apply_patch format (*** Add File: p, *** Update File: p, *** Delete
// File: p, *** Move to: p) found in any string of the arguments, command
// arrays and a shell's here-document (apply_patch <<'EOF') included.
func patchPaths(args map[string]any) []string {
	var out []string
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			if !strings.Contains(v, "*** Begin Patch") {
				return
			}
			for line := range strings.Lines(v) {
				line = strings.TrimRight(line, "\r\n")
				for _, h := range []string{"*** Add File: ", "*** Update File: ", "*** Delete File: ", "*** Move to: "} {
					if p, ok := strings.CutPrefix(line, h); ok && strings.TrimSpace(p) != "" {
						out = append(out, strings.TrimSpace(p))
					}
				}
			}
		case []any:
			for _, e := range v {
				walk(e)
			}
		case map[string]any:
			for _, e := range v {
				walk(e)
			}
		}
	}
	walk(args)
	return out
}

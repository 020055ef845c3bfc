package adapt

import (
	"cmp"
	"encoding/json"
	"slices"
	"strings"
)

// PostTool is the hook event of a tool use that has finished: the hook
// records the files a file-changing tool touched (evidence).
const PostTool Event = "post-tool"

// fileTools are the tools, by lower-cased name across the hosts, that
// change files: Claude Code's Write, Edit, MultiEdit and NotebookEdit,
// Gemini CLI's write_file and replace, Codex's apply_patch, Copilot CLI's
// create and edit, opencode's write, edit, multiedit and patch.
var fileTools = map[string]bool{
	"write": true, "edit": true, "multiedit": true, "notebookedit": true,
	"write_file": true, "replace": true, "apply_patch": true, "patch": true,
	"create": true, "str_replace": true, "str_replace_editor": true, "multi_edit": true, "insert": true,
}

// pathKeys are the keys of a tool's arguments that name the file it
// changes, in the hosts' spellings.
var pathKeys = []string{"file_path", "notebook_path", "filePath", "path", "absolute_path"}

// postToolInput is every shape a post-tool hook's input comes in: the
// snake_case of Claude Code, Codex, Gemini CLI and the opencode plugin
// (tool_name, tool_input), Copilot CLI's camelCase (toolName, toolArgs as
// a JSON string), and Cursor's afterFileEdit (file_path at the top).
type postToolInput struct {
	SessionID      string          `json:"session_id"`
	ConversationID string          `json:"conversation_id"`
	SessionIDCamel string          `json:"sessionId"`
	ToolName       string          `json:"tool_name"`
	ToolNameCamel  string          `json:"toolName"`
	ToolInput      json.RawMessage `json:"tool_input"`
	ToolArgs       json.RawMessage `json:"toolArgs"`
	FilePath       string          `json:"file_path"`
	HookEventName  string          `json:"hook_event_name"`
	Cwd            string          `json:"cwd"`
	Roots          []string        `json:"workspace_roots"`
}

// readPostTool reads a post-tool hook's input, whatever the host. Paths
// are as the host gave them (absolute or relative to Dir); they are empty
// for a tool that changes no file.
func readPostTool(raw []byte) (Input, error) {
	var p postToolInput
	if err := json.Unmarshal(raw, &p); err != nil {
		return Input{}, err
	}
	in := Input{SessionID: cmp.Or(p.SessionID, p.ConversationID, p.SessionIDCamel),
		Tool: cmp.Or(p.ToolName, p.ToolNameCamel), Dir: p.Cwd}
	if in.Dir == "" && len(p.Roots) > 0 {
		in.Dir = p.Roots[0]
	}
	args := argsObject(cmp.Or(string(p.ToolInput), string(p.ToolArgs)))
	var paths []string
	if p.FilePath != "" { // Cursor's afterFileEdit: every call is an edit
		in.Tool = cmp.Or(in.Tool, "afterFileEdit")
		paths = append(paths, p.FilePath)
	}
	patched := patchPaths(args)
	if !fileTools[strings.ToLower(in.Tool)] && p.FilePath == "" && len(patched) == 0 {
		return in, nil
	}
	for _, k := range pathKeys {
		if s, ok := args[k].(string); ok && s != "" {
			paths = append(paths, s)
		}
	}
	paths = append(paths, patched...)
	slices.Sort(paths)
	in.Files = slices.Compact(paths)
	return in, nil
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
// arrays included.
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

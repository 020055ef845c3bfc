package adapt

import (
	"encoding/json"
	"path/filepath"
)

// PreTool is the hook event a host runs before a tool: clumsies' gate
// (docs/rules.md). Only hosts with a pre-tool hook whose answer can deny a
// tool have it: Claude Code (PreToolUse) and Gemini CLI (BeforeTool). It is
// not one of Events(), the events every host's hooks run. GitHub Copilot
// CLI (preToolUse) has it too.
const PreTool Event = "pre-tool"

// preToolHook is how a host runs the gate: where its hook goes, which of
// its tools change files, and how it answers.
type preToolHook struct {
	// settings is the file the hook entry goes in (scope s).
	settings func(s Scope, e Env) string
	// entry is the hook entry, run for the tools the matcher names.
	entry func(e Env) jsonEntry
	// edits names the tools that change files; others are never gated.
	edits map[string]bool
	// answer renders a deny (Block, Reason), a warning (Context) or the
	// neutral answer.
	answer func(a Answer) []byte
	// input decodes the host's input when it is not Claude Code's shape
	// (toolInput); nil for those that are.
	input func(raw []byte) (Input, error)
}

// The pre-tool hooks, by host (see the hosts' files for their formats).
func init() {
	claudeCode.preTool = &preToolHook{
		settings: settingsIn(".claude"),
		entry: func(e Env) jsonEntry {
			return jsonEntry{
				path: []string{"hooks", "PreToolUse"},
				value: obj{{"matcher", "Write|Edit|MultiEdit|NotebookEdit"}, {"hooks", []any{obj{
					{"type", "command"}, {"command", e.hookCommand("claude-code", PreTool)}, {"timeout", 30}}}}},
				ours: oursFor("claude-code", PreTool),
			}
		},
		// Copilot CLI runs Claude Code's hooks with its own tool names
		// (edit, create).
		edits: map[string]bool{"Write": true, "Edit": true, "MultiEdit": true, "NotebookEdit": true, "edit": true, "create": true},
		answer: func(a Answer) []byte {
			switch {
			case a.Block:
				return jsonLine(map[string]any{"hookSpecificOutput": map[string]string{
					"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": a.Reason}})
			case a.Context != "":
				return hookSpecific("PreToolUse", a.Context)
			}
			return nil
		},
	}
	geminiCLI.preTool = &preToolHook{
		settings: settingsIn(".gemini"),
		entry: func(e Env) jsonEntry {
			return jsonEntry{
				path: []string{"hooks", "BeforeTool"},
				value: obj{{"matcher", "write_file|replace"}, {"hooks", []any{obj{{"name", "clumsies-" + string(PreTool)},
					{"type", "command"}, {"command", e.hookCommand("gemini-cli", PreTool)}, {"timeout", 30000}}}}},
				ours: oursFor("gemini-cli", PreTool),
			}
		},
		edits: map[string]bool{"write_file": true, "replace": true},
		// BeforeTool has no context for the agent: a warning is a
		// systemMessage, which Gemini CLI shows the user.
		answer: func(a Answer) []byte {
			switch {
			case a.Block:
				return jsonLine(map[string]string{"decision": "deny", "reason": a.Reason})
			case a.Context != "":
				return jsonLine(map[string]string{"systemMessage": a.Context})
			}
			return jsonLine(map[string]any{})
		},
	}
	copilot.preTool = &preToolHook{
		settings: copilotHooksFile,
		entry: func(e Env) jsonEntry {
			return jsonEntry{path: []string{"hooks", "preToolUse"},
				value: obj{{"type", "command"}, {"bash", e.hookCommand("copilot", PreTool)}, {"timeoutSec", 30}},
				ours:  oursFor("copilot", PreTool)}
		},
		// Copilot CLI runs preToolUse for every tool; edit and create
		// change files.
		edits: map[string]bool{"edit": true, "create": true},
		// Copilot CLI reads the decision at the top level, never
		// hookSpecificOutput.
		answer: func(a Answer) []byte {
			switch {
			case a.Block:
				return jsonLine(map[string]string{"permissionDecision": "deny", "permissionDecisionReason": a.Reason})
			case a.Context != "":
				return jsonLine(map[string]string{"additionalContext": a.Context})
			}
			return nil
		},
		// Its own camelCase input (toolName, toolArgs as a JSON string),
		// or Claude Code's snake_case when it runs Claude Code's hooks:
		// the post-tool reader reads both.
		input: readPostTool,
	}
}

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

// HasPreTool reports whether h has a pre-tool hook.
func (h *Host) HasPreTool() bool { return h.preTool != nil }

// toolInput is the tool part of Claude Code's and Gemini CLI's hook input
// (snake_case, as commonInput).
type toolInput struct {
	SessionID string `json:"session_id"`
	Cwd       string `json:"cwd"`
	ToolName  string `json:"tool_name"`
	ToolInput struct {
		FilePath     string `json:"file_path"`
		NotebookPath string `json:"notebook_path"`
		Path         string `json:"path"` // Copilot CLI's edit and create
	} `json:"tool_input"`
}

// read decodes a pre-tool input: Tool always, Files only for a tool that
// changes files.
func (p *preToolHook) read(raw []byte) (Input, error) {
	if p.input != nil {
		in, err := p.input(raw)
		if !p.edits[in.Tool] {
			in.Files = nil
		}
		return in, err
	}
	var t toolInput
	if err := json.Unmarshal(raw, &t); err != nil {
		return Input{}, err
	}
	in := Input{SessionID: t.SessionID, Dir: t.Cwd, Tool: t.ToolName}
	if p.edits[t.ToolName] {
		for _, f := range []string{t.ToolInput.FilePath, t.ToolInput.NotebookPath, t.ToolInput.Path} {
			if f != "" {
				in.Files = append(in.Files, f)
			}
		}
	}
	return in, nil
}

// wire adds the hook entry to the plan's settings file (scope s).
func (p *preToolHook) wire(plan *Plan, s Scope, e Env) {
	path := p.settings(s, e)
	for i := range plan.Files {
		if plan.Files[i].Path == path {
			plan.Files[i].json = append(plan.Files[i].json, p.entry(e))
			return
		}
	}
	plan.Files = append(plan.Files, File{Path: path, json: []jsonEntry{p.entry(e)}})
}

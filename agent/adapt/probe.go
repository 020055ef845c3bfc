package adapt

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"time"
)

// Probe is a hook call made as the host makes it, to see whether the hook
// answers as it should (`clumsies doctor`): which of the host's hooks runs
// and what it reads on stdin.
type Probe struct {
	// HostEvent is the host's event whose hook runs (PreToolUse,
	// pre_write_code, tool.execute.before), as HookLine names it.
	HostEvent string
	// Input is the JSON the host writes on the hook's stdin.
	Input []byte
}

// probeMaker builds a host's probe: for PreTool an edit of file (absolute)
// by the host's own file tool, for Stop the end of a turn.
type probeMaker func(ev Event, session, dir, file string) (Probe, bool)

// probes are the hosts' probes, in the shapes of agent/adapt/testdata/<host>.
var probes = map[string]probeMaker{
	"claude-code": func(ev Event, session, dir, file string) (Probe, bool) {
		in := map[string]any{"session_id": session, "cwd": dir, "permission_mode": "default"}
		switch ev {
		case PreTool:
			in["hook_event_name"], in["tool_name"], in["tool_use_id"] = "PreToolUse", "Write", session+"-tool"
			in["tool_input"] = map[string]any{"file_path": file, "content": ""}
		case Stop:
			in["hook_event_name"], in["stop_hook_active"] = "Stop", false
		default:
			return Probe{}, false
		}
		return Probe{in["hook_event_name"].(string), jsonLine(in)}, true
	},
	"codex": func(ev Event, session, dir, file string) (Probe, bool) {
		in := map[string]any{"session_id": session, "turn_id": "1", "cwd": dir, "model": "", "permission_mode": "default"}
		switch ev {
		case PreTool: // Codex hands its hook a patch as Bash's command
			rel, err := filepath.Rel(dir, file)
			if err != nil {
				rel = file
			}
			in["hook_event_name"], in["tool_name"], in["tool_use_id"] = "PreToolUse", "Bash", session+"-tool"
			in["tool_input"] = map[string]any{"command": "apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: " +
				filepath.ToSlash(rel) + "\n@@\n-\n+\n*** End Patch\nEOF\n"}
		case Stop:
			in["hook_event_name"], in["stop_hook_active"], in["last_assistant_message"] = "Stop", false, ""
		default:
			return Probe{}, false
		}
		return Probe{in["hook_event_name"].(string), jsonLine(in)}, true
	},
	"gemini-cli": func(ev Event, session, dir, file string) (Probe, bool) {
		in := map[string]any{"session_id": session, "cwd": dir, "timestamp": time.Now().UTC().Format(time.RFC3339Nano)}
		switch ev {
		case PreTool:
			in["hook_event_name"], in["tool_name"] = "BeforeTool", "write_file"
			in["tool_input"] = map[string]any{"file_path": file, "content": ""}
		case Stop:
			in["hook_event_name"], in["prompt"], in["prompt_response"], in["stop_hook_active"] = "AfterAgent", "", "", false
		default:
			return Probe{}, false
		}
		return Probe{in["hook_event_name"].(string), jsonLine(in)}, true
	},
	"copilot": func(ev Event, session, dir, file string) (Probe, bool) {
		in := map[string]any{"sessionId": session, "timestamp": time.Now().UnixMilli(), "cwd": dir}
		switch ev {
		case PreTool:
			args, _ := json.Marshal(map[string]string{"path": file, "file_text": ""})
			in["toolName"], in["toolArgs"] = "create", string(args)
			return Probe{"preToolUse", jsonLine(in)}, true
		case Stop:
			in["stopReason"] = "end_turn"
			return Probe{"agentStop", jsonLine(in)}, true
		}
		return Probe{}, false
	},
	"cursor": func(ev Event, session, dir, file string) (Probe, bool) {
		in := map[string]any{"conversation_id": session, "generation_id": session + "-1", "workspace_roots": []string{dir}}
		switch ev {
		case PreTool:
			in["hook_event_name"], in["tool_name"], in["tool_use_id"], in["cwd"] = "preToolUse", "Write", session+"-tool", dir
			in["tool_input"] = map[string]any{"file_path": file, "contents": ""}
		case Stop:
			in["hook_event_name"], in["status"], in["loop_count"] = "stop", "completed", 0
		default:
			return Probe{}, false
		}
		return Probe{in["hook_event_name"].(string), jsonLine(in)}, true
	},
	"vscode": func(ev Event, session, dir, file string) (Probe, bool) {
		in := map[string]any{"sessionId": session, "cwd": dir, "timestamp": time.Now().UTC().Format(time.RFC3339Nano)}
		switch ev {
		case PreTool:
			in["hookEventName"], in["tool_name"], in["tool_use_id"] = "PreToolUse", "editFiles", session+"-tool"
			in["tool_input"] = map[string]any{"files": []string{file}}
		case Stop:
			in["hookEventName"], in["stop_hook_active"] = "Stop", false
		default:
			return Probe{}, false
		}
		return Probe{in["hookEventName"].(string), jsonLine(in)}, true
	},
	"windsurf": func(ev Event, session, dir, file string) (Probe, bool) {
		if ev != PreTool { // no session hooks: nothing runs at a stop
			return Probe{}, false
		}
		in := map[string]any{"agent_action_name": "pre_write_code", "trajectory_id": session, "execution_id": session + "-1",
			"timestamp": time.Now().UTC().Format(time.RFC3339Nano), "tool_info": map[string]any{"file_path": file, "edits": []any{}}}
		return Probe{"pre_write_code", jsonLine(in)}, true
	},
	"opencode": func(ev Event, session, dir, file string) (Probe, bool) {
		in := map[string]any{"session_id": session, "cwd": dir}
		switch ev {
		case PreTool:
			in["tool_name"], in["tool_use_id"] = "write", session+"-tool"
			in["tool_input"] = map[string]any{"filePath": file, "content": ""}
			return Probe{"tool.execute.before", jsonLine(in)}, true
		case Stop:
			in["stop_hook_active"] = false
			return Probe{"session.idle", jsonLine(in)}, true
		}
		return Probe{}, false
	},
}

// Probe returns the hook call h makes for ev, in the host's own input
// shape: for PreTool an edit of file (an absolute path) by the host's file
// tool, for Stop the end of a turn (no loop guard set). session is the
// session id and dir the folder the host works in. It returns false when
// h has no hook for ev (Windsurf's stop).
func (h *Host) Probe(ev Event, session, dir, file string) (Probe, bool) {
	mk, ok := probes[h.Name]
	if !ok {
		return Probe{}, false
	}
	return mk(ev, session, dir, file)
}

// Verdict is what a host makes of a hook's reply (PreTool or Stop).
type Verdict struct {
	// Refused: the host does not run the tool (pre-tool), or does not let
	// the agent stop (stop).
	Refused bool
	// Warned: the tool runs and the agent, or the user, is told Text.
	Warned bool
	// Text is the reason of a refusal, or the warning.
	Text string
}

// Verdict reads r, the reply of h's hook for ev (PreTool or Stop), as the
// host reads it: its fields, or its exit status where the host takes that
// as a refusal (2 for Claude Code, Codex, Gemini CLI, VS Code and
// Windsurf's gate; any status but 0 for Copilot CLI's preToolUse). Output
// the host cannot read is neither a refusal nor a warning.
func (h *Host) Verdict(ev Event, r Reply) Verdict {
	var out map[string]any
	if len(strings.TrimSpace(string(r.Stdout))) > 0 && json.Unmarshal(r.Stdout, &out) != nil {
		out = nil
	}
	str := func(m map[string]any, k string) string { s, _ := m[k].(string); return s }
	specific, _ := out["hookSpecificOutput"].(map[string]any)
	refused := func(text string) Verdict { return Verdict{Refused: true, Text: text} }
	warned := func(text string) Verdict {
		if text == "" {
			return Verdict{}
		}
		return Verdict{Warned: true, Text: text}
	}
	switch h.Name {
	case "claude-code", "codex", "gemini-cli", "vscode":
		if r.Exit == 2 {
			return refused(r.Stderr)
		}
	case "copilot":
		if ev == PreTool && r.Exit != 0 {
			return refused(r.Stderr)
		}
	case "windsurf":
		if ev != PreTool {
			return Verdict{}
		}
		if r.Exit == 2 {
			return refused(r.Stderr)
		}
		return warned(r.Stderr)
	}
	if ev == Stop {
		switch h.Name {
		case "gemini-cli":
			if d := str(out, "decision"); d == "deny" || d == "block" {
				return refused(str(out, "reason"))
			}
		case "cursor":
			if s := str(out, "followup_message"); s != "" {
				return refused(s)
			}
		case "vscode":
			if str(specific, "decision") == "block" {
				return refused(str(specific, "reason"))
			}
			fallthrough
		default:
			if str(out, "decision") == "block" {
				return refused(str(out, "reason"))
			}
		}
		return Verdict{}
	}
	switch h.Name {
	case "claude-code", "codex", "vscode":
		if str(specific, "permissionDecision") == "deny" {
			return refused(str(specific, "permissionDecisionReason"))
		}
		return warned(str(specific, "additionalContext"))
	case "gemini-cli":
		if d := str(out, "decision"); d == "deny" || d == "block" {
			return refused(str(out, "reason"))
		}
		return warned(str(out, "systemMessage"))
	case "copilot":
		if str(out, "permissionDecision") == "deny" {
			return refused(str(out, "permissionDecisionReason"))
		}
		return warned(str(out, "additionalContext"))
	case "cursor":
		if str(out, "permission") == "deny" {
			return refused(str(out, "agent_message"))
		}
		if s := str(out, "agent_message"); s != "" {
			return warned(s)
		}
		return warned(str(out, "user_message"))
	case "opencode":
		if str(out, "decision") == "block" && str(out, "reason") != "" {
			return refused(str(out, "reason"))
		}
		return warned(str(out, "context"))
	}
	return Verdict{}
}

package adapt

import (
	"encoding/json"
	"fmt"
)

// Event is a hook event, in clumsies' own names; each host maps its own
// event names to these.
type Event string

// The hook events.
const (
	SessionStart Event = "session-start"
	UserPrompt   Event = "user-prompt"
	Stop         Event = "stop"
)

// Events returns the hook events every host wires alike; PreTool and PostTool are
// wired per host (toolHooks).
func Events() []Event { return []Event{SessionStart, UserPrompt, Stop} }

// ParseEvent checks an event name.
func ParseEvent(s string) (Event, error) {
	switch e := Event(s); e {
	case SessionStart, UserPrompt, Stop, PreTool, PostTool:
		return e, nil
	}
	return "", fmt.Errorf("unknown hook event %q: want session-start, user-prompt, stop, pre-tool or post-tool", s)
}

// Input is what clumsies reads of a host's hook input.
type Input struct {
	// SessionID is the host's id of the session (Claude Code's
	// session_id, Cursor's conversation_id, ...).
	SessionID string
	// Source is why a session started: startup, resume, clear, compact.
	Source string
	// Model is the model the host named.
	Model string
	// Prompt is the user's prompt (user-prompt).
	Prompt string
	// Continuing is the host's loop guard: true when the agent is already
	// going on because a stop hook refused a stop (Claude Code's
	// stop_hook_active, Cursor's loop_count above 0).
	Continuing bool
	// Dir is the folder the host works in, when it says.
	Dir string
	// Echo is set on a user prompt that is the stop hook's own reason,
	// which hosts that cannot refuse a stop in place send back as a new
	// prompt (Gemini CLI, Copilot CLI): it is not the user's.
	Echo bool `json:",omitempty"`
	// Tool is the host's name of the tool about to run (pre-tool) or that
	// ran (post-tool).
	Tool string `json:",omitempty"`
	// Files are the files the tool is about to change (pre-tool) or
	// changed (post-tool), as the host named them: absolute, or relative
	// to Dir; none for a tool that changes no file.
	Files []string `json:",omitempty"`
	// Command is the command line of a shell tool (Claude Code's Bash,
	// Gemini CLI's run_shell_command, Copilot CLI's bash, Cursor's
	// beforeShellExecution, ...), as the host gave it: the hook reads its
	// writes before it runs (pre-tool) and the working tree after it.
	Command string `json:",omitempty"`
	// Failed is set on a post-tool input the host reports as failed
	// (Gemini CLI's tool_response.error, Claude Code's success false): the
	// tool changed nothing it named.
	Failed bool `json:",omitempty"`
	// ToolUseID is the host's own id of the tool call and Transcript the
	// path of its transcript, where the host gives them.
	ToolUseID  string `json:",omitempty"`
	Transcript string `json:",omitempty"`
}

// Answer is what a hook tells the host.
type Answer struct {
	// Context is text for the agent's context (session-start, and
	// post-tool on the hosts that read it there: the checks' findings).
	Context string
	// Block refuses a stop, or a tool (pre-tool), with Reason for the
	// agent to act on. Context on a pre-tool answer is a warning.
	Block  bool
	Reason string
}

// commonInput is the snake_case input that Claude Code, Codex and Gemini
// CLI share (and that the opencode plugin sends).
type commonInput struct {
	SessionID      string `json:"session_id"`
	Source         string `json:"source"`
	Model          string `json:"model"`
	Prompt         string `json:"prompt"`
	StopHookActive bool   `json:"stop_hook_active"`
	Cwd            string `json:"cwd"`
}

func readCommon(_ Event, raw []byte) (Input, error) {
	var c commonInput
	if err := json.Unmarshal(raw, &c); err != nil {
		return Input{}, err
	}
	return Input{SessionID: c.SessionID, Source: c.Source, Model: c.Model, Prompt: c.Prompt,
		Continuing: c.StopHookActive, Dir: c.Cwd}, nil
}

// jsonLine renders v as one line of JSON with a newline.
func jsonLine(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // only our own maps and structs
	}
	return append(b, '\n')
}

// hookSpecific is the hookSpecificOutput answer of Claude Code, Codex and
// Gemini CLI to a session start.
func hookSpecific(event, context string) []byte {
	return jsonLine(map[string]any{"hookSpecificOutput": map[string]string{
		"hookEventName": event, "additionalContext": context}})
}

package events

// Event types written by `clumsies hook`, the command a host's hooks run.
// They attest what the host saw, not what the agent called: a session the
// host started, a prompt its user sent, a stop the hook refused. They are
// not tool calls (IsTool is false) and carry no tool name.
const (
	TypeSessionStart Type = "attest.session_start"
	TypeUserPrompt   Type = "attest.user_prompt"
	TypeStopBlocked  Type = "attest.stop_blocked"
)

// IsHook reports whether events of type t were written by a host's hook.
func (t Type) IsHook() bool { return t.info().family == familyHook }

// SessionStartData is the payload of attest.session_start: the host's
// session-start hook announced the event's session id to the agent.
type SessionStartData struct {
	// Host is the adapter's host name, such as claude-code.
	Host string `json:"host"`
	// Source says why the session started, as the host put it: startup,
	// resume, clear, compact.
	Source string `json:"source,omitempty"`
	// Model is the model the host named, when it named one.
	Model string `json:"model,omitempty"`
	// SecretHash is the hash (SecretHash) of the session secret the hook
	// handed the agent with its id; absent in events of hooks that
	// handed none (before sessions were bound).
	SecretHash string `json:"secretHash,omitempty"`
}

// UserPromptData is the payload of attest.user_prompt: the user sent the
// agent a prompt. The text is kept only when the workspace opts in
// (record_prompts); the hash and the length always are.
type UserPromptData struct {
	Host string `json:"host"`
	// SHA256 is "sha256:<64 hex>" of the prompt's UTF-8 bytes.
	SHA256 string `json:"sha256"`
	// Length is the prompt's length in bytes.
	Length int `json:"length"`
	// Text is the prompt, cut to MaxPromptText bytes, when recorded.
	Text string `json:"text,omitempty"`
	// TextTruncated is true when Text holds only the start of the prompt.
	TextTruncated bool `json:"textTruncated,omitempty"`
}

// MaxPromptText bounds the prompt text an attest.user_prompt keeps.
const MaxPromptText = 64 << 10

// StopBlockedData is the payload of attest.stop_blocked: the stop hook
// refused to let the agent stop because the last prompt had no report.
type StopBlockedData struct {
	Host string `json:"host"`
	// Blocks counts the stops blocked in a row since the last prompt,
	// this one included.
	Blocks int `json:"blocks"`
	// Limit is how many stops in a row the hook blocks before it lets the
	// agent go.
	Limit int `json:"limit"`
	// Files, when set, are the files the session changed (by any route)
	// that rules it has not loaded apply to, and Missing those rules: the
	// stop gate held the agent until it loads them.
	Files   []string `json:"files,omitempty"`
	Missing []string `json:"missing,omitempty"`
}

package adapt

// Reply is what a hook's process gives its host: what it prints on
// stdout, a line for stderr, and its exit status.
type Reply struct {
	// Stdout is the answer in the host's format, possibly nothing.
	Stdout []byte
	// Stderr, when set, is a line for the host to show: Windsurf's reason
	// for a refusal (which its agent reads) or its gate's warning.
	Stderr string
	// Exit is 0, except where a host reads a refusal from the exit status
	// alone: 2 on Windsurf's gate refusing a tool. No other host ever gets
	// 2, which Claude Code, Gemini CLI, Codex and VS Code would read as a
	// block.
	Exit int
}

// Reply renders a for ev as the host takes it: stdout, stderr and the
// exit status the hook must end with.
func (h *Host) Reply(ev Event, a Answer) Reply {
	if ev == PreTool {
		if !h.HasPreTool() {
			return Reply{}
		}
		return h.tools.gate(a)
	}
	return Reply{Stdout: h.answer(ev, a)}
}

package adapt

import (
	"fmt"
	"strings"
)

// SetupContext is what the session-start hook puts in the agent's context:
// its real session id, and what the workspace expects of it.
func SetupContext(sessionID string) string {
	return fmt.Sprintf("clumsies: this session's id is %q. Before any other clumsies tool, call the clumsies "+
		"MCP tool memsetup with session_id %q: this exact id, never an invented one. When you have answered "+
		"each user prompt, call agentreport with a short summary of what you did, or agentrejected with the "+
		"reason you could not follow the loaded guidance.", sessionID, sessionID)
}

// StopReason is what the stop hook tells an agent whose last prompt has no
// report yet.
func StopReason(sessionID string) string {
	return fmt.Sprintf("clumsies: the user's last prompt has no report yet. Call the clumsies MCP tool "+
		"agentreport with a short summary of what you did (or agentrejected with the reason you could not "+
		"follow the guidance), then stop. Your session id is %q.", sessionID)
}

// isStopReason reports whether prompt is the StopReason of session id,
// sent back by the host as a prompt.
func isStopReason(prompt, sessionID string) bool {
	return strings.TrimSpace(prompt) == StopReason(sessionID)
}

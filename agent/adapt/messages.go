package adapt

import (
	"fmt"
	"strings"
)

// SetupContext is what the session-start hook puts in the agent's context:
// its real session id, the secret that proves the session is the agent's
// (none from a hook that issues none), and what the workspace expects of
// it.
func SetupContext(sessionID, secret string) string {
	setup := fmt.Sprintf("memsetup with session_id %q: this exact id, never an invented one.", sessionID)
	if secret != "" {
		setup = fmt.Sprintf("memsetup with session_id %q and session_secret %q: this exact id, never an invented one. "+
			"The secret proves the session is yours: pass it to memsetup whenever you set up (also on a new connection), "+
			"and with session_id over HTTP at protocol 2026-07-28; never show it to anyone.", sessionID, secret)
	}
	return fmt.Sprintf("clumsies: this session's id is %q. Before any other clumsies tool, call the clumsies "+
		"MCP tool %s When you have answered "+
		"each user prompt, call agentreport with a short summary of what you did, or agentrejected with the "+
		"reason you could not follow the loaded guidance.", sessionID, setup)
}

// StopReason is what the stop hook tells an agent whose last prompt has no
// report yet.
func StopReason(sessionID string) string {
	return fmt.Sprintf("clumsies: the user's last prompt has no report yet. Call the clumsies MCP tool "+
		"agentreport with a short summary of what you did (or agentrejected with the reason you could not "+
		"follow the guidance), then stop. Your session id is %q.", sessionID)
}

// StopGateReason is what the stop gate tells an agent that changed files
// (by any route) that rules it has not loaded apply to: the files, the
// rules, and the memload call to make (memload, its arguments as JSON);
// report adds the report request when the last prompt has none yet.
func StopGateReason(sessionID string, files, rules []string, memload string, report bool) string {
	var b strings.Builder
	b.WriteString(stopGatePrefix(sessionID))
	fmt.Fprintf(&b, "you changed %s, which rules of this workspace apply to, without loading them: %s. "+
		"Call the clumsies MCP tool memload with %s, check your changes against what it says and fix them, then stop.",
		strings.Join(files, ", "), strings.Join(rules, "; "), memload)
	if report {
		b.WriteString(" The user's last prompt also has no report yet: call agentreport with a short summary of what you " +
			"did (or agentrejected with the reason you could not follow the guidance).")
	}
	return b.String()
}

// stopGatePrefix starts every StopGateReason of session id.
func stopGatePrefix(sessionID string) string {
	return fmt.Sprintf("clumsies (session %q): before you stop, ", sessionID)
}

// isStopReason reports whether prompt is the StopReason or a
// StopGateReason of session id, sent back by the host as a prompt.
func isStopReason(prompt, sessionID string) bool {
	p := strings.TrimSpace(prompt)
	return p == StopReason(sessionID) || strings.HasPrefix(p, stopGatePrefix(sessionID))
}

// CheckContext is what the agent is told after a tool call whose change
// the checks of rules in scope found fault with: findings are lines
// "file:line constraint (rule): message".
func CheckContext(findings []string, more int) string {
	return "clumsies: the lines this change added do not pass the checks of rules in scope:\n" + findingList(findings, more) +
		"\nFix them; if a finding is wrong or the user wants it so, say why with agentrejected when you close the turn."
}

// StopCheckReason is what the stop gate tells an agent whose session's
// changes do not pass the checks of rules in scope: findings as
// CheckContext's; gate, when set, is a StopGateReason to say first (rules
// not loaded). report adds the report request.
func StopCheckReason(sessionID string, findings []string, more int, gate string, report bool) string {
	var b strings.Builder
	if gate != "" {
		b.WriteString(gate)
		b.WriteString(" Also, ")
	} else {
		b.WriteString(stopGatePrefix(sessionID))
	}
	b.WriteString("the changes of your session do not pass the checks of rules in scope:\n")
	b.WriteString(findingList(findings, more))
	b.WriteString("\nFix them, then stop; if a finding is wrong or the user wants it so, call the clumsies MCP tool " +
		"agentrejected with the reason instead, then stop.")
	if report && gate == "" {
		b.WriteString(" The user's last prompt also has no report yet: call agentreport with a short summary of what you " +
			"did (or agentrejected with the reason you could not follow the guidance).")
	}
	return b.String()
}

// findingList is findings one a line, and how many more were left out.
func findingList(findings []string, more int) string {
	s := "- " + strings.Join(findings, "\n- ")
	if more > 0 {
		s += fmt.Sprintf("\n- and %d more", more)
	}
	return s
}

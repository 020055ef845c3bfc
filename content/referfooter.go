package content

import (
	"strconv"
	"strings"
)

// referFooterLead is the line of the refer-reminder footer that follows
// its "---" line.
const referFooterLead = "clumsies: when your turn ends, declare the constraints of this file that you applied, all together in ONE memref call."

// The fields of the footer's last lines.
var referFooterFields = []string{"ruleId:", "ruleHash:", "constraintIds:"}

// ReferFooter is the refer-reminder footer memload appends to the content
// of every rule and workflow it returns: after a "---" line, one line
// asking the agent to declare what it applied in a single memref call at
// the end of its turn, then the ruleId and ruleHash to use and the
// constraint ids (quoted) it may refer to. It is the server's text, not
// the file's: StripReferFooter takes it off a body an agent sends back.
func ReferFooter(id, hash string, constraintIDs []string) string {
	var b strings.Builder
	b.WriteString("\n\n---\n")
	b.WriteString(referFooterLead + "\n")
	b.WriteString("ruleId: " + id + "\n")
	b.WriteString("ruleHash: " + hash + "\n")
	if len(constraintIDs) == 0 {
		b.WriteString("constraintIds: none (this file has nothing to refer to)\n")
		return b.String()
	}
	ids := make([]string, len(constraintIDs))
	for i, c := range constraintIDs {
		ids[i] = strconv.Quote(c)
	}
	b.WriteString("constraintIds: " + strings.Join(ids, ", ") + "\n")
	return b.String()
}

// StripReferFooter returns body without the refer-reminder footer
// (ReferFooter) at its end, followed by one newline, and true; or body as
// it is and false when it does not end with one. The footer is found
// line by line from the end, whatever its ids and hash and however its
// lines end (LF or CRLF), so that one copied from any memload answer is
// found; text after it is not the footer's and keeps the body as it is.
func StripReferFooter(body string) (string, bool) {
	lines := strings.Split(strings.ReplaceAll(body, "\r\n", "\n"), "\n")
	i := len(lines) - 1
	for i >= 0 && strings.TrimSpace(lines[i]) == "" {
		i--
	}
	fields := 0
	for i >= 0 && isFooterField(lines[i]) {
		fields++
		i--
	}
	if fields == 0 || i < 1 || strings.TrimSpace(lines[i]) != referFooterLead || strings.TrimSpace(lines[i-1]) != "---" {
		return body, false
	}
	kept := strings.TrimRight(strings.Join(lines[:i-1], "\n"), " \t\n")
	if strings.Contains(body, "\r\n") {
		kept = strings.ReplaceAll(kept, "\n", "\r\n")
		return kept + "\r\n", true
	}
	return kept + "\n", true
}

// HasReferFooter reports whether body ends with the refer-reminder footer.
func HasReferFooter(body string) bool {
	_, ok := StripReferFooter(body)
	return ok
}

func isFooterField(line string) bool {
	line = strings.TrimSpace(line)
	for _, f := range referFooterFields {
		if strings.HasPrefix(line, f) {
			return true
		}
	}
	return false
}

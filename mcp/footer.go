package mcp

import (
	"strconv"
	"strings"

	"github.com/clumsies/clumsies/content"
)

// referFooter is appended to the content of every rule and workflow memload
// returns: after a "---" line, one line asking the agent to declare what it
// applied in a single memref call at the end of its turn, then the ruleId
// and ruleHash to use and the constraint ids it may refer to.
func referFooter(id, hash string, cs []content.Constraint) string {
	var b strings.Builder
	b.WriteString("\n\n---\n")
	b.WriteString("clumsies: when your turn ends, declare the constraints of this file that you applied, all together in ONE memref call.\n")
	b.WriteString("ruleId: " + id + "\n")
	b.WriteString("ruleHash: " + hash + "\n")
	if len(cs) == 0 {
		b.WriteString("constraintIds: none (this file has nothing to refer to)\n")
		return b.String()
	}
	ids := make([]string, len(cs))
	for i, c := range cs {
		ids[i] = strconv.Quote(c.ID)
	}
	b.WriteString("constraintIds: " + strings.Join(ids, ", ") + "\n")
	return b.String()
}

// withFooter returns body followed by its footer.
func withFooter(body, id, hash string, cs []content.Constraint) string {
	return strings.TrimRight(body, "\n") + referFooter(id, hash, cs)
}

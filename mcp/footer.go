package mcp

import (
	"strings"

	"github.com/clumsies/clumsies/content"
)

// referFooter is the refer-reminder footer of a rule or workflow memload
// returns (content.ReferFooter).
func referFooter(id, hash string, cs []content.Constraint) string {
	ids := make([]string, len(cs))
	for i, c := range cs {
		ids[i] = c.ID
	}
	return content.ReferFooter(id, hash, ids)
}

// withFooter returns body followed by its footer.
func withFooter(body, id, hash string, cs []content.Constraint) string {
	return strings.TrimRight(body, "\n") + referFooter(id, hash, cs)
}

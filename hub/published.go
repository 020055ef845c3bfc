package hub

import (
	"strings"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
)

// publishedRule is the row of a published rule or workflow: its path and
// the ids of its constraints, for paths and coverage in Stats.
type publishedRule struct {
	path        string
	constraints []string
}

// publishedRow encodes the row of a catalog.publish: the path, then each
// constraint id of the body on a line of its own (ids and paths hold no
// newline: content.CleanPath refuses control characters, and a constraint
// id is built from one heading line).
func publishedRow(d events.PublishData) []byte {
	var b strings.Builder
	b.WriteString(d.Path)
	for _, c := range content.ParseConstraints(content.NameOf(d.Path), d.Body) {
		b.WriteByte('\n')
		b.WriteString(c.ID)
	}
	return []byte(b.String())
}

// readPublishedRow decodes publishedRow. A row written before constraints
// were kept is a path alone: the rule then counts no constraints until the
// hub's read models are rebuilt or the rule is published again.
func readPublishedRow(v []byte) publishedRule {
	path, rest, _ := strings.Cut(string(v), "\n")
	pr := publishedRule{path: path}
	if rest != "" {
		pr.constraints = strings.Split(rest, "\n")
	}
	return pr
}

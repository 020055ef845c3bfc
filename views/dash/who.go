package dash

import (
	"cmp"
	"slices"
	"strings"

	"github.com/clumsies/clumsies/projections"
)

// Who ran a session: the agent host and the model its hooks named, else
// the MCP client its memsetup named (an MCP-only host: Cursor, VS Code
// without hooks), and how the session is bound to whoever set it up.
type Who struct {
	Host  string `json:"host,omitempty"`
	Model string `json:"model,omitempty"`
}

// whoOf is who ran session s, c being its compliance (zero when none).
func whoOf(s projections.Session, c projections.Compliance) Who {
	return Who{Host: cmp.Or(c.Host, s.Client), Model: c.Model}
}

// whoRan is who ran session id; zero when the read models know nothing
// of it.
func whoRan(src Source, id string) Who {
	s, _ := src.Session(id)
	c, _ := src.SessionCompliance(id)
	return whoOf(s, c)
}

// whoIndex reads who ran every session, by id.
func whoIndex(src Source) map[string]Who {
	comp := map[string]projections.Compliance{}
	for _, c := range src.Compliance() {
		comp[c.ID] = c
	}
	out := map[string]Who{}
	for _, s := range src.Sessions() {
		out[s.ID] = whoOf(s, comp[s.ID])
	}
	return out
}

// Breakdown counts sessions by one of their traits: a host, a model.
type Breakdown struct {
	Name     string `json:"name"`
	Sessions int    `json:"sessions"`
}

// unknownWho names the sessions whose host or model no one named.
const unknownWho = "unknown"

// breakdowns counts the sessions of all that set up by host and by
// model (who ran them), most sessions first.
func breakdowns(all []projections.Session, who map[string]Who) (hosts, models []Breakdown) {
	byHost, byModel := map[string]int{}, map[string]int{}
	for _, s := range all {
		if !s.SetUp {
			continue
		}
		w := who[s.ID]
		byHost[cmp.Or(w.Host, unknownWho)]++
		byModel[cmp.Or(w.Model, unknownWho)]++
	}
	return sorted(byHost), sorted(byModel)
}

func sorted(counts map[string]int) []Breakdown {
	out := make([]Breakdown, 0, len(counts))
	for name, n := range counts {
		out = append(out, Breakdown{Name: name, Sessions: n})
	}
	slices.SortFunc(out, func(a, b Breakdown) int {
		return cmp.Or(b.Sessions-a.Sessions, strings.Compare(a.Name, b.Name))
	})
	return out
}

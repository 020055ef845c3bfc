package dash

import (
	"strings"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/dayrange"
	"github.com/clumsies/clumsies/projections"
)

// Search is the API's search across rules and sessions: GET
// /api/search?q=. A rule matches when every word of the query is in its
// path, name, group, id or description; a session when every word is in
// its id, its host or its model. Rules carry their refs in the range; sessions are
// those first seen in it, newest first. At most MaxFound of each.
type Search struct {
	Q        string                    `json:"q"`
	Range    dayrange.Range            `json:"range"`
	Rules    []projections.RuleSummary `json:"rules"`
	Sessions []SessionBrief            `json:"sessions"`
	// More is set when more rules or sessions matched than are listed.
	More bool `json:"more"`
}

// MaxFound bounds the rules and the sessions a search lists.
const MaxFound = 100

func search(src Source, q string, rg dayrange.Range) Search {
	words := strings.Fields(strings.ToLower(q))
	out := Search{Q: q, Range: rg, Rules: []projections.RuleSummary{}, Sessions: []SessionBrief{}}
	if len(words) == 0 {
		return out
	}
	has := func(text string) bool {
		text = strings.ToLower(text)
		for _, w := range words {
			if !strings.Contains(text, w) {
				return false
			}
		}
		return true
	}
	for _, r := range src.RuleSummaries() {
		if !has(r.Path + " " + r.Name + " " + r.Group + " " + r.ID + " " + r.Description) {
			continue
		}
		if len(out.Rules) == MaxFound {
			out.More = true
			break
		}
		if r.Kind != content.KindContext {
			r.Refs = refsIn(src, r, rg)
		}
		out.Rules = append(out.Rules, r)
	}
	for _, s := range sessions(src, rg, 0).Items {
		if !has(s.ID + " " + s.Host + " " + s.Model) {
			continue
		}
		if len(out.Sessions) == MaxFound {
			out.More = true
			break
		}
		out.Sessions = append(out.Sessions, s)
	}
	return out
}

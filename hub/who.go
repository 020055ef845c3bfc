package hub

import (
	"cmp"
	"slices"
	"strings"

	"github.com/clumsies/clumsies/evidence"
	"github.com/clumsies/clumsies/hub/hubwire"
)

// unknownWho names the sessions whose host or model nothing named.
const unknownWho = "unknown"

// whoBreakdowns counts sessions by host and by model, most first.
func whoBreakdowns(sessions []hubwire.SessionEvidence) (hosts, models []hubwire.Breakdown) {
	byHost, byModel := map[string]int{}, map[string]int{}
	for _, s := range sessions {
		byHost[cmp.Or(s.HostOrClient(), unknownWho)]++
		byModel[cmp.Or(s.Model, unknownWho)]++
	}
	return breakdown(byHost), breakdown(byModel)
}

func breakdown(counts map[string]int) []hubwire.Breakdown {
	out := make([]hubwire.Breakdown, 0, len(counts))
	for name, n := range counts {
		out = append(out, hubwire.Breakdown{Name: name, Sessions: n})
	}
	slices.SortFunc(out, func(a, b hubwire.Breakdown) int {
		return cmp.Or(b.Sessions-a.Sessions, strings.Compare(a.Name, b.Name))
	})
	return out
}

// memberWho is the hosts and models of a member's sessions.
type memberWho struct{ hosts, models []string }

// add notes who ran session s.
func (w *memberWho) add(s evidence.Session) {
	if h := s.HostOrClient(); h != "" && !slices.Contains(w.hosts, h) {
		w.hosts = append(w.hosts, h)
		slices.Sort(w.hosts)
	}
	if s.Model != "" && !slices.Contains(w.models, s.Model) {
		w.models = append(w.models, s.Model)
		slices.Sort(w.models)
	}
}

// memberEvidence is what a member's sessions with evidence add up to.
type memberEvidence struct {
	figures evidence.Figures
	who     memberWho
}

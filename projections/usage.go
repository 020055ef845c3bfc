package projections

import (
	"cmp"
	"slices"
	"strings"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
)

// RuleUsage counts the references to one rule or workflow.
type RuleUsage struct {
	ID   string       `json:"id"`
	Path string       `json:"path"`           // "" when no longer published
	Kind content.Kind `json:"kind,omitempty"` // "" when no longer published
	Refs uint64       `json:"refs"`
	// Constraints are sorted by constraint id.
	Constraints []ConstraintUsage `json:"constraints"`
}

// ConstraintUsage counts the references to one constraint.
type ConstraintUsage struct {
	ID   string `json:"id"`
	Refs uint64 `json:"refs"`
}

// ruleConstraint names one constraint of one rule.
type ruleConstraint struct{ rule, constraint string }

// refer applies attest.refer: every ref counts once for its rule, once for
// its constraint and once for the session.
func (st *state) refer(ev *events.Event, rs refs, ch *changes) {
	for _, r := range rs {
		st.ruleRefs[r.rule]++
		ch.rules[r.rule] = struct{}{}
		byConstraint := st.constraintRefs[r.rule]
		if byConstraint == nil {
			byConstraint = make(map[string]uint64)
			st.constraintRefs[r.rule] = byConstraint
		}
		byConstraint[r.constraint]++
		ch.constraints[r] = struct{}{}
	}
	if ev.SessionID != "" && len(rs) > 0 {
		st.sessions[ev.SessionID].Refs += uint64(len(rs))
	}
}

// Usage returns the references per rule and workflow: one entry for every
// published rule and workflow (unreferenced ones with zero refs, every
// constraint listed) and one for every id that was referenced but is no
// longer published. Sorted by path, then id.
func (s *Store) Usage() []RuleUsage {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var out []RuleUsage
	seen := make(map[string]bool)
	for _, o := range s.st.objects {
		if o.Kind != content.KindRule && o.Kind != content.KindWorkflow {
			continue
		}
		seen[o.ID] = true
		u := RuleUsage{ID: o.ID, Path: o.Path, Kind: o.Kind, Refs: s.st.ruleRefs[o.ID]}
		counted := s.st.constraintRefs[o.ID]
		for _, c := range o.Constraints {
			u.Constraints = append(u.Constraints, ConstraintUsage{ID: c.ID, Refs: counted[c.ID]})
		}
		for id, n := range counted {
			if !slices.ContainsFunc(o.Constraints, func(c content.Constraint) bool { return c.ID == id }) {
				u.Constraints = append(u.Constraints, ConstraintUsage{ID: id, Refs: n})
			}
		}
		out = append(out, u)
	}
	for id, n := range s.st.ruleRefs {
		if seen[id] {
			continue
		}
		u := RuleUsage{ID: id, Refs: n}
		for cid, cn := range s.st.constraintRefs[id] {
			u.Constraints = append(u.Constraints, ConstraintUsage{ID: cid, Refs: cn})
		}
		out = append(out, u)
	}
	for i := range out {
		slices.SortFunc(out[i].Constraints, func(a, b ConstraintUsage) int { return strings.Compare(a.ID, b.ID) })
	}
	slices.SortFunc(out, func(a, b RuleUsage) int {
		return cmp.Or(strings.Compare(a.Path, b.Path), strings.Compare(a.ID, b.ID))
	})
	return out
}

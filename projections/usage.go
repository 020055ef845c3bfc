package projections

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections/engine"
)

// RuleUsage counts the references to one rule or workflow.
type RuleUsage struct {
	ID   string       `json:"id"`
	Path string       `json:"path"`           // "" when no longer published
	Kind content.Kind `json:"kind,omitempty"` // "" when no longer published
	Refs uint64       `json:"refs"`
	// Source is "team" for a rule of the team's catalog at the hub (the
	// owner fills it in, with its path and kind); absent for the
	// repository's.
	Source string `json:"source,omitempty"`
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

// The usage rows: refs per rule and per constraint.
const (
	prefixUsage      = "u/"
	prefixRuleRefs   = "u/r/"
	prefixConstraint = "u/c/"
)

func ruleRefsKey(ruleID string) []byte { return []byte(prefixRuleRefs + ruleID) }

func constraintKey(ruleID, constraintID string) []byte {
	return []byte(prefixConstraint + ruleID + "\x00" + constraintID)
}

// parseConstraintKey splits the rest of a constraint usage key,
// "<ruleId>\x00<constraintId>". Rule ids hold no NUL; constraint ids may.
func parseConstraintKey(rest string) (ruleID, constraintID string, err error) {
	ruleID, constraintID, ok := strings.Cut(rest, "\x00")
	if !ok {
		return "", "", fmt.Errorf("constraint usage key %q has no separator", rest)
	}
	return ruleID, constraintID, nil
}

// usageModel is the read model of references: how often each rule or
// workflow, and each of its constraints, was referenced by a successful
// memref. Counts stay when the rule is removed.
type usageModel struct {
	rules       map[string]uint64
	constraints map[string]map[string]uint64 // rule id -> constraint id -> refs

	// Touched since the last write.
	touchedRules       map[string]struct{}
	touchedConstraints map[ruleConstraint]struct{}
}

func newUsageModel() *usageModel {
	return &usageModel{
		rules:              make(map[string]uint64),
		constraints:        make(map[string]map[string]uint64),
		touchedRules:       make(map[string]struct{}),
		touchedConstraints: make(map[ruleConstraint]struct{}),
	}
}

func (m *usageModel) Prefixes() []string { return []string{prefixUsage} }

// Folds implements folder.
func (m *usageModel) Folds() []events.Type {
	return []events.Type{events.TypeRefer, events.TypeCatalogReid}
}

// apply counts the refs of attest.refer: every ref once for its rule and
// once for its constraint; catalog.reid moves the counts of its old id to
// its new one.
func (m *usageModel) Apply(d decoded) {
	if r, ok := d.payload.(*events.ReidData); ok {
		m.move(r.From, r.To)
		return
	}
	rs, ok := d.payload.(refs)
	if !ok {
		return
	}
	for _, r := range rs {
		m.rules[r.rule]++
		m.touchedRules[r.rule] = struct{}{}
		byConstraint := m.constraints[r.rule]
		if byConstraint == nil {
			byConstraint = make(map[string]uint64)
			m.constraints[r.rule] = byConstraint
		}
		byConstraint[r.constraint]++
		m.touchedConstraints[r] = struct{}{}
	}
}

// move adds the counts of rule from to those of rule to, and forgets from.
func (m *usageModel) move(from, to string) {
	if from == to {
		return
	}
	if n, ok := m.rules[from]; ok {
		m.rules[to] += n
		delete(m.rules, from)
		m.touchedRules[from], m.touchedRules[to] = struct{}{}, struct{}{}
	}
	moveCounts(m.constraints, from, to, func(rule, c string) { m.touchedConstraints[ruleConstraint{rule, c}] = struct{}{} })
}

// moveCounts adds the counts of id from in m to those of id to, and
// forgets from; touch learns every key of from and to it changed.
func moveCounts(m map[string]map[string]uint64, from, to string, touch func(id, key string)) {
	counts := m[from]
	if counts == nil || from == to {
		return
	}
	into := m[to]
	if into == nil {
		into = make(map[string]uint64)
		m[to] = into
	}
	for k, n := range counts {
		into[k] += n
		touch(from, k)
		touch(to, k)
	}
	delete(m, from)
}

func (m *usageModel) Write(w *engine.RowWriter) {
	for id := range m.touchedRules {
		if n, ok := m.rules[id]; ok {
			w.Set(ruleRefsKey(id), encodeU64(n))
		} else {
			w.Del(ruleRefsKey(id))
		}
	}
	for k := range m.touchedConstraints {
		if n, ok := m.constraints[k.rule][k.constraint]; ok {
			w.Set(constraintKey(k.rule, k.constraint), encodeU64(n))
		} else {
			w.Del(constraintKey(k.rule, k.constraint))
		}
	}
	clear(m.touchedRules)
	clear(m.touchedConstraints)
}

func (m *usageModel) Load(k string, v []byte) error {
	var err error
	switch {
	case strings.HasPrefix(k, prefixRuleRefs):
		m.rules[k[len(prefixRuleRefs):]], err = decodeU64(v)
	case strings.HasPrefix(k, prefixConstraint):
		var rule, c string
		var n uint64
		if rule, c, err = parseConstraintKey(k[len(prefixConstraint):]); err == nil {
			n, err = decodeU64(v)
		}
		if m.constraints[rule] == nil {
			m.constraints[rule] = make(map[string]uint64)
		}
		m.constraints[rule][c] = n
	default:
		err = engine.ErrUnknownRow
	}
	return err
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
	for _, o := range s.st.manifest.objects {
		kind := o.Kind()
		if kind != content.KindRule && kind != content.KindWorkflow {
			continue
		}
		id := o.ID()
		seen[id] = true
		u := RuleUsage{ID: id, Path: o.Path(), Kind: kind, Refs: s.st.usage.rules[id]}
		counted := s.st.usage.constraints[id]
		ids := o.constraintIDs()
		for _, cid := range ids {
			u.Constraints = append(u.Constraints, ConstraintUsage{ID: cid, Refs: counted[cid]})
		}
		for id, n := range counted {
			if !slices.Contains(ids, id) {
				u.Constraints = append(u.Constraints, ConstraintUsage{ID: id, Refs: n})
			}
		}
		out = append(out, u)
	}
	for id, n := range s.st.usage.rules {
		if seen[id] {
			continue
		}
		u := RuleUsage{ID: id, Refs: n}
		for cid, cn := range s.st.usage.constraints[id] {
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

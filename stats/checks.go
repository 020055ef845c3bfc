package stats

import (
	"cmp"
	"maps"
	"slices"

	"github.com/clumsies/clumsies/projections"
)

// RuleChecks is the "checks" part of `clumsies stats --json` for one rule:
// what its checks found in the sessions whose changes they ran on (files
// in its scope), held against whether the session had loaded it.
type RuleChecks struct {
	ID string `json:"id"`
	// Sessions counts the sessions the rule's checks ran in.
	Sessions int `json:"sessions"`
	// Loaded and Unloaded are the sessions with a finding among those that
	// had the rule loaded when its checks first ran, and among those that
	// had not.
	Loaded   Share `json:"loaded"`
	Unloaded Share `json:"unloaded"`
	// Constraints count the findings per constraint, sorted by id.
	Constraints []ConstraintChecks `json:"constraints"`
	// Versions are per version of the rule (its content hash at the
	// session's first check), sorted by hash: the sessions, and those
	// with a finding.
	Versions []VersionChecks `json:"versions"`
}

// ConstraintChecks counts the findings of one constraint: found, fixed
// before the turn ended, rejected with a reason, and still open.
type ConstraintChecks struct {
	ID       string `json:"id"`
	Found    int    `json:"found"`
	Fixed    int    `json:"fixed"`
	Rejected int    `json:"rejected"`
	Open     int    `json:"open"`
}

// VersionChecks is one version of a rule.
type VersionChecks struct {
	Hash     string `json:"hash"`
	Sessions int    `json:"sessions"`
	Findings Share  `json:"withFindings"`
}

// checksOf sums the checks of the sessions ss per rule, sorted by id.
func checksOf(ss []projections.SessionEvidence) []RuleChecks {
	type acc struct {
		sessions, loaded, loadedFound, unloaded, unloadedFound int
		constraints                                            map[string]*ConstraintChecks
		versions                                               map[string][2]int
	}
	byRule := map[string]*acc{}
	for _, s := range ss {
		for _, rc := range s.Checks {
			a := byRule[rc.ID]
			if a == nil {
				a = &acc{constraints: map[string]*ConstraintChecks{}, versions: map[string][2]int{}}
				byRule[rc.ID] = a
			}
			found := 0
			for _, f := range rc.Findings {
				c := a.constraints[f.Constraint]
				if c == nil {
					c = &ConstraintChecks{ID: f.Constraint}
					a.constraints[f.Constraint] = c
				}
				c.Found += f.Found
				c.Fixed += f.Fixed
				c.Rejected += f.Rejected
				c.Open += f.Open
				found += f.Found
			}
			withFinding := 0
			if found > 0 {
				withFinding = 1
			}
			a.sessions++
			if rc.Loaded {
				a.loaded++
				a.loadedFound += withFinding
			} else {
				a.unloaded++
				a.unloadedFound += withFinding
			}
			v := a.versions[rc.Hash]
			a.versions[rc.Hash] = [2]int{v[0] + 1, v[1] + withFinding}
		}
	}
	out := []RuleChecks{}
	for _, id := range slices.Sorted(maps.Keys(byRule)) {
		a := byRule[id]
		r := RuleChecks{ID: id, Sessions: a.sessions, Loaded: shareOf(a.loadedFound, a.loaded), Unloaded: shareOf(a.unloadedFound, a.unloaded),
			Constraints: []ConstraintChecks{}, Versions: []VersionChecks{}}
		for _, c := range a.constraints {
			r.Constraints = append(r.Constraints, *c)
		}
		slices.SortFunc(r.Constraints, func(x, y ConstraintChecks) int { return cmp.Compare(x.ID, y.ID) })
		for _, h := range slices.Sorted(maps.Keys(a.versions)) {
			v := a.versions[h]
			r.Versions = append(r.Versions, VersionChecks{Hash: h, Sessions: v[0], Findings: shareOf(v[1], v[0])})
		}
		out = append(out, r)
	}
	return out
}

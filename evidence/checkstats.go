package evidence

import (
	"cmp"
	"maps"
	"slices"
)

// CheckTotals is what the checks of one rule found over many sessions
// (those whose changes they ran on: files in its scope), held against
// whether each session had loaded it. It is the "checks" part of
// `clumsies stats --json`, of the dashboard's rule page and of the hub's
// stats: SumChecks is the one computation of all three.
type CheckTotals struct {
	ID string `json:"id"`
	// Sessions counts the sessions the rule's checks ran in.
	Sessions int `json:"sessions"`
	// Loaded and Unloaded are the sessions with a finding among those that
	// had the rule loaded when its checks first ran, and among those that
	// had not.
	Loaded   Share `json:"loaded"`
	Unloaded Share `json:"unloaded"`
	// Constraints count the findings per constraint, sorted by id.
	Constraints []ConstraintTotals `json:"constraints"`
	// Versions are per version of the rule (its content hash at the
	// session's first check), sorted by hash: the sessions, and those
	// with a finding.
	Versions []VersionTotals `json:"versions"`
}

// ConstraintTotals counts the findings of one constraint: found, fixed
// before the turn ended, rejected with a reason, and still open.
type ConstraintTotals struct {
	ID       string `json:"id"`
	Found    int    `json:"found"`
	Fixed    int    `json:"fixed"`
	Rejected int    `json:"rejected"`
	Open     int    `json:"open"`
}

// VersionTotals is one version of a rule.
type VersionTotals struct {
	Hash     string `json:"hash"`
	Sessions int    `json:"sessions"`
	Findings Share  `json:"withFindings"`
}

// SumChecks sums the checks of the sessions ss per rule, sorted by id.
func SumChecks(ss []Session) []CheckTotals {
	type acc struct {
		sessions, loaded, loadedFound, unloaded, unloadedFound int
		constraints                                            map[string]*ConstraintTotals
		versions                                               map[string][2]int
	}
	byRule := map[string]*acc{}
	for _, s := range ss {
		for _, rc := range s.Checks {
			a := byRule[rc.ID]
			if a == nil {
				a = &acc{constraints: map[string]*ConstraintTotals{}, versions: map[string][2]int{}}
				byRule[rc.ID] = a
			}
			found := 0
			for _, f := range rc.Findings {
				c := a.constraints[f.Constraint]
				if c == nil {
					c = &ConstraintTotals{ID: f.Constraint}
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
	out := []CheckTotals{}
	for _, id := range slices.Sorted(maps.Keys(byRule)) {
		a := byRule[id]
		r := CheckTotals{ID: id, Sessions: a.sessions, Loaded: ShareOf(a.loadedFound, a.loaded), Unloaded: ShareOf(a.unloadedFound, a.unloaded),
			Constraints: []ConstraintTotals{}, Versions: []VersionTotals{}}
		for _, c := range a.constraints {
			r.Constraints = append(r.Constraints, *c)
		}
		slices.SortFunc(r.Constraints, func(x, y ConstraintTotals) int { return cmp.Compare(x.ID, y.ID) })
		for _, h := range slices.Sorted(maps.Keys(a.versions)) {
			v := a.versions[h]
			r.Versions = append(r.Versions, VersionTotals{Hash: h, Sessions: v[0], Findings: ShareOf(v[1], v[0])})
		}
		out = append(out, r)
	}
	return out
}

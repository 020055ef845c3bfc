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

// VersionTotals is one version of a rule (its content hash at the
// session's first check): its sessions, those with a finding, the same
// split by whether the session had loaded the rule, and per constraint
// the sessions that broke it, loaded against not, out of the version's
// loaded and unloaded sessions: "with this version, sessions that loaded
// it broke Errors/2 in k of n, those that did not in j of m".
type VersionTotals struct {
	Hash        string              `json:"hash"`
	Sessions    int                 `json:"sessions"`
	Findings    Share               `json:"withFindings"`
	Loaded      Share               `json:"loaded"`
	Unloaded    Share               `json:"unloaded"`
	Constraints []VersionConstraint `json:"constraints"`
}

// VersionConstraint is one constraint of one version: the sessions that
// broke it (a finding of it), of those that had the rule loaded and of
// those that had not.
type VersionConstraint struct {
	ID       string `json:"id"`
	Loaded   Share  `json:"loaded"`
	Unloaded Share  `json:"unloaded"`
}

// split counts sessions with a finding, loaded against not.
type split struct{ loaded, loadedFound, unloaded, unloadedFound int }

func (s *split) add(loaded, found bool) {
	f := 0
	if found {
		f = 1
	}
	if loaded {
		s.loaded++
		s.loadedFound += f
	} else {
		s.unloaded++
		s.unloadedFound += f
	}
}

// version sums the sessions of one version of a rule: all, and per
// constraint the sessions with a finding of it (their denominators
// those of all).
type version struct {
	all         split
	constraints map[string]*split
}

// SumChecks sums the checks of the sessions ss per rule, sorted by id.
func SumChecks(ss []Session) []CheckTotals {
	type acc struct {
		all         split
		constraints map[string]*ConstraintTotals
		versions    map[string]*version
	}
	byRule := map[string]*acc{}
	for _, s := range ss {
		for _, rc := range s.Checks {
			a := byRule[rc.ID]
			if a == nil {
				a = &acc{constraints: map[string]*ConstraintTotals{}, versions: map[string]*version{}}
				byRule[rc.ID] = a
			}
			v := a.versions[rc.Hash]
			if v == nil {
				v = &version{constraints: map[string]*split{}}
				a.versions[rc.Hash] = v
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
				if f.Found > 0 {
					vc := v.constraints[f.Constraint]
					if vc == nil {
						vc = new(split)
						v.constraints[f.Constraint] = vc
					}
					vc.add(rc.Loaded, true)
				}
			}
			a.all.add(rc.Loaded, found > 0)
			v.all.add(rc.Loaded, found > 0)
		}
	}
	out := []CheckTotals{}
	for _, id := range slices.Sorted(maps.Keys(byRule)) {
		a := byRule[id]
		r := CheckTotals{ID: id, Sessions: a.all.loaded + a.all.unloaded, Loaded: ShareOf(a.all.loadedFound, a.all.loaded),
			Unloaded: ShareOf(a.all.unloadedFound, a.all.unloaded), Constraints: []ConstraintTotals{}, Versions: []VersionTotals{}}
		for _, c := range a.constraints {
			r.Constraints = append(r.Constraints, *c)
		}
		slices.SortFunc(r.Constraints, func(x, y ConstraintTotals) int { return cmp.Compare(x.ID, y.ID) })
		for _, h := range slices.Sorted(maps.Keys(a.versions)) {
			r.Versions = append(r.Versions, a.versions[h].totals(h))
		}
		out = append(out, r)
	}
	return out
}

// totals is the VersionTotals of v, version h.
func (v *version) totals(h string) VersionTotals {
	n := v.all.loaded + v.all.unloaded
	out := VersionTotals{Hash: h, Sessions: n, Findings: ShareOf(v.all.loadedFound+v.all.unloadedFound, n),
		Loaded: ShareOf(v.all.loadedFound, v.all.loaded), Unloaded: ShareOf(v.all.unloadedFound, v.all.unloaded), Constraints: []VersionConstraint{}}
	for _, id := range slices.Sorted(maps.Keys(v.constraints)) {
		c := v.constraints[id]
		out.Constraints = append(out.Constraints, VersionConstraint{ID: id, Loaded: ShareOf(c.loadedFound, v.all.loaded), Unloaded: ShareOf(c.unloadedFound, v.all.unloaded)})
	}
	return out
}

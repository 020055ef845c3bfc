package dash

import (
	"github.com/clumsies/clumsies/dayrange"
	"github.com/clumsies/clumsies/evidence"
)

// ruleChecksIn is what the checks of rule id found over the sessions
// first seen in rg: the figures `clumsies stats --json` gives for the
// rule and range (evidence.SumChecks over the same sessions). A rule
// whose checks never ran has no sessions, no constraints, no versions.
func ruleChecksIn(src Source, id string, rg dayrange.Range) evidence.CheckTotals {
	for _, c := range evidence.SumChecks(EvidenceOf(src.Evidence(), SessionsIn(src.Sessions(), rg))) {
		if c.ID == id {
			return c
		}
	}
	return evidence.CheckTotals{ID: id, Loaded: evidence.ShareOf(0, 0), Unloaded: evidence.ShareOf(0, 0),
		Constraints: []evidence.ConstraintTotals{}, Versions: []evidence.VersionTotals{}}
}

package evidence

import (
	"maps"
	"slices"
	"strconv"

	"github.com/clumsies/clumsies/events"
)

// MaxFindings bounds the findings a session's Row keeps per rule.
const MaxFindings = 200

// States of a finding in a session.
const (
	FindingOpen     = "open"     // it stands
	FindingFixed    = "fixed"    // a later check of the session's whole change no longer found it
	FindingRejected = "rejected" // it stood when the agent closed the turn with agentrejected and a reason
)

// CheckRow is what the checks of one rule found in one session.
type CheckRow struct {
	// Hash is the rule's version at the session's first check of it;
	// Loaded whether the session had loaded the rule then.
	Hash   string `json:"hash"`
	Loaded bool   `json:"loaded,omitempty"`
	Runs   uint64 `json:"runs"`
	// Findings are keyed by constraint, file and what was found (the
	// matched text's hash, or the line of a require check).
	Findings map[string]*FindingRow `json:"findings,omitempty"`
}

// FindingRow is one finding in a session.
type FindingRow struct {
	Constraint string `json:"constraint"`
	File       string `json:"file"`
	State      string `json:"state"`
	// Hash is the rule's version that found it.
	Hash string `json:"hash"`
}

// findingKey identifies a finding within a rule in a session: the same
// text in the same file found again is the same finding.
func findingKey(r events.CheckResult) string {
	what := r.Match
	if what == "" {
		what = r.Kind + ":" + strconv.Itoa(r.Check)
	}
	return r.Constraint + "\x00" + r.File + "\x00" + what
}

// Check folds a successful attest.check. After a tool (post-tool), its
// findings are open (again). At stop, the check ran on the session's
// whole change: a finding of a file checked that it no longer finds is
// fixed; one it finds again stays open, or is rejected when the turn was
// closed with a reason (Rejected). of gives the id a rule has now (nil:
// the id itself).
func (r *Row) Check(d *events.CheckData, of func(id string) string) {
	r.SawHost(d.Host)
	if of == nil {
		of = same
	}
	unloaded := map[string]bool{}
	for _, id := range d.Unloaded {
		unloaded[of(id)] = true
	}
	rows := map[string]*CheckRow{}
	for _, cr := range d.Rules {
		id := of(cr.ID)
		c := r.checkRow(id)
		if c.Runs == 0 {
			c.Hash, c.Loaded = cr.Hash, !unloaded[id]
		}
		c.Runs++
		rows[id] = c
	}
	found := map[string]map[string]bool{} // rule -> finding keys found now
	for _, res := range d.Results {
		if res.Pass {
			continue
		}
		id := of(res.Rule)
		c := rows[id]
		if c == nil {
			continue
		}
		k := findingKey(res)
		if found[id] == nil {
			found[id] = map[string]bool{}
		}
		found[id][k] = true
		state := FindingOpen
		if d.Rejected {
			state = FindingRejected
		}
		if f := c.Findings[k]; f != nil {
			f.State = state
			continue
		}
		if len(c.Findings) < MaxFindings {
			if c.Findings == nil {
				c.Findings = map[string]*FindingRow{}
			}
			c.Findings[k] = &FindingRow{Constraint: res.Constraint, File: res.File, State: state, Hash: ruleHash(d.Rules, res.Rule)}
		}
	}
	if d.Via != events.ViaStop {
		return
	}
	for id, c := range rows {
		for k, f := range c.Findings {
			if f.State == FindingOpen && !found[id][k] {
				if _, checked := slices.BinarySearch(d.Files, f.File); checked {
					f.State = FindingFixed
				}
			}
		}
	}
}

// checkRow is the CheckRow of rule id, made if missing.
func (r *Row) checkRow(id string) *CheckRow {
	if r.Checks == nil {
		r.Checks = map[string]*CheckRow{}
	}
	c := r.Checks[id]
	if c == nil {
		c = new(CheckRow)
		r.Checks[id] = c
	}
	return c
}

// ruleHash is the version of rule id among rules.
func ruleHash(rules []events.CheckedRule, id string) string {
	for _, cr := range rules {
		if cr.ID == id {
			return cr.Hash
		}
	}
	return ""
}

// RuleChecks is what the checks of one rule found in one session.
type RuleChecks struct {
	ID     string `json:"id"`
	Hash   string `json:"hash"`
	Loaded bool   `json:"loaded"`
	Runs   uint64 `json:"runs"`
	// Findings are per constraint, sorted by constraint id.
	Findings []ConstraintFindings `json:"findings"`
}

// ConstraintFindings counts the findings of one constraint by state.
type ConstraintFindings struct {
	Constraint string `json:"constraint"`
	Found      int    `json:"found"`
	Fixed      int    `json:"fixed"`
	Rejected   int    `json:"rejected"`
	Open       int    `json:"open"`
}

// checks is the API form of the session's checks, sorted by rule id.
func (r *Row) checks() []RuleChecks {
	out := []RuleChecks{}
	for _, id := range slices.Sorted(maps.Keys(r.Checks)) {
		c := r.Checks[id]
		byC := map[string]*ConstraintFindings{}
		for _, f := range c.Findings {
			cf := byC[f.Constraint]
			if cf == nil {
				cf = &ConstraintFindings{Constraint: f.Constraint}
				byC[f.Constraint] = cf
			}
			cf.Found++
			switch f.State {
			case FindingFixed:
				cf.Fixed++
			case FindingRejected:
				cf.Rejected++
			default:
				cf.Open++
			}
		}
		rc := RuleChecks{ID: id, Hash: c.Hash, Loaded: c.Loaded, Runs: c.Runs, Findings: []ConstraintFindings{}}
		for _, k := range slices.Sorted(maps.Keys(byC)) {
			rc.Findings = append(rc.Findings, *byC[k])
		}
		out = append(out, rc)
	}
	return out
}

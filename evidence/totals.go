package evidence

import (
	"maps"
	"slices"
)

// RuleTotals is one rule's evidence over sessions.
type RuleTotals struct {
	ID string `json:"id"`
	// InScope counts the sessions with an edit in the rule's scope;
	// UnloadedEdits the edits in its scope made before the session had
	// loaded it.
	InScope       int    `json:"inScope"`
	UnloadedEdits uint64 `json:"unloadedEdits"`
	// InScopeNotLoaded counts the sessions of InScope that never loaded
	// the rule.
	InScopeNotLoaded int `json:"inScopeNotLoaded"`
	// Loaded and Referenced count the sessions that loaded it and that
	// claimed it (memref), in its scope or not.
	Loaded     int `json:"loaded"`
	Referenced int `json:"referenced"`
	// Unsupported counts the refs claimed without evidence.
	Unsupported uint64 `json:"unsupported"`
	// RuleGate sums the gates' figures of the rule over the sessions.
	RuleGate
}

// Add counts one session's evidence of the rule.
func (t *RuleTotals) Add(r Rule) {
	t.RuleGate.Add(r.RuleGate)
	t.InScope += count(r.InScope > 0)
	t.InScopeNotLoaded += count(r.InScope > 0 && !r.Loaded)
	t.UnloadedEdits += r.UnloadedEdits
	t.Loaded += count(r.Loaded)
	t.Referenced += count(r.Refs > 0)
	t.Unsupported += r.Unsupported
}

func count(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Totals sums ss per rule, sorted by rule id.
func Totals(ss []Session) []RuleTotals {
	byID := map[string]*RuleTotals{}
	for _, s := range ss {
		for _, r := range s.Rules {
			t := byID[r.ID]
			if t == nil {
				t = &RuleTotals{ID: r.ID}
				byID[r.ID] = t
			}
			t.Add(r)
		}
	}
	out := make([]RuleTotals, 0, len(byID))
	for _, id := range slices.Sorted(maps.Keys(byID)) {
		out = append(out, *byID[id])
	}
	return out
}

// Figures sums sessions' evidence over their rules: a member's, say.
// InScope, Loaded and Referenced count (session, rule) pairs, as
// RuleTotals counts sessions for one rule.
type Figures struct {
	Edits         uint64 `json:"edits"`
	InScope       int    `json:"inScope"`
	UnloadedEdits uint64 `json:"unloadedEdits"`
	Loaded        int    `json:"loaded"`
	Referenced    int    `json:"referenced"`
	Unsupported   uint64 `json:"unsupported"`
	// Gate sums the gates' figures of the sessions.
	Gate
}

// Add counts session s.
func (f *Figures) Add(s Session) {
	f.Edits += s.Edits
	f.Gate.Add(s.Gate)
	for _, r := range s.Rules {
		f.InScope += count(r.InScope > 0)
		f.UnloadedEdits += r.UnloadedEdits
		f.Loaded += count(r.Loaded)
		f.Referenced += count(r.Refs > 0)
		f.Unsupported += r.Unsupported
	}
}

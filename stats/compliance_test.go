package stats

import (
	"testing"

	"github.com/clumsies/clumsies/evidence"
	"github.com/clumsies/clumsies/projections"
)

// A session is compliant when its facts say so and it claimed nothing
// without evidence; the counts are over the sessions, and each session
// carries the rules its edits had in scope and those it loaded.
func TestComplianceOf(t *testing.T) {
	facts := []projections.Compliance{
		{ID: "a", Host: "claude-code", HookStarts: 1, Setups: 1, Prompts: 2, Answered: 2},
		{ID: "b", Host: "claude-code", HookStarts: 1, Setups: 1, Prompts: 1, Answered: 1},
		{ID: "c", HookStarts: 1, Prompts: 1},
		{ID: "d", Setups: 1, InventedID: true},
	}
	ev := evidenceOf([]projections.SessionEvidence{
		{ID: "a", Edits: 1, Rules: []evidence.Rule{{ID: "r1", InScope: 1, Loaded: true}, {ID: "r2", Loaded: true}}},
		{ID: "b", Edits: 2, Unsupported: 1, Rules: []evidence.Rule{{ID: "r1", Refs: 1, Unsupported: 1}}},
	})
	c := complianceOf(facts, ev, "off")
	if c.HookSessions != 3 || c.SetupWithHookID != 2 || c.InventedIDs != 1 || c.Prompts != 4 || c.Answered != 3 || c.Compliant != 1 {
		t.Fatalf("counts: %+v", c)
	}
	a, b := c.Sessions[0], c.Sessions[1]
	if !a.Compliant || a.RulesInScope != 1 || a.RulesLoaded != 2 || a.Edits != 1 {
		t.Errorf("session a: %+v, want compliant, 1 rule in scope, 2 loaded, 1 edit", a)
	}
	if b.Compliant || b.Unsupported != 1 {
		t.Errorf("session b: %+v, want not compliant: a claim without evidence", b)
	}
	if ev.Edits != 3 || ev.Unsupported != 1 {
		t.Errorf("evidence totals: %d edits, %d unsupported, want 3 and 1", ev.Edits, ev.Unsupported)
	}
}

// With the gate on (warn or block), a session that changed files in scope
// of rules it had not loaded is not compliant; with it off, the change is
// counted and the session stays compliant. Denials alone (the gate held)
// leave it compliant.
func TestComplianceOf_Enforce(t *testing.T) {
	facts := []projections.Compliance{
		{ID: "denied", HookStarts: 1, Setups: 1},
		{ID: "ungated", HookStarts: 1, Setups: 1},
	}
	ev := evidenceOf([]projections.SessionEvidence{
		{ID: "denied", Gate: evidence.Gate{RuleGate: evidence.RuleGate{Denials: 3}}},
		{ID: "ungated", Edits: 3, NoHostEvidence: false, Gate: evidence.Gate{RuleGate: evidence.RuleGate{Denials: 3, Ungated: 3}}},
	})
	for _, tc := range []struct {
		enforce, want string
		ungatedOK     bool
	}{
		{"", "off", true},
		{"off", "off", true},
		{"warn", "warn", false},
		{"block", "block", false},
	} {
		c := complianceOf(facts, ev, tc.enforce)
		if c.Enforce != tc.want {
			t.Errorf("%q: enforce %q, want %q", tc.enforce, c.Enforce, tc.want)
		}
		denied, ungated := c.Sessions[0], c.Sessions[1]
		if !denied.Compliant || denied.Denials != 3 {
			t.Errorf("%q: denied session %+v, want compliant with 3 denials", tc.enforce, denied)
		}
		if ungated.Compliant != tc.ungatedOK || ungated.Ungated != 3 {
			t.Errorf("%q: ungated session %+v, want compliant %t with 3 ungated changes", tc.enforce, ungated, tc.ungatedOK)
		}
	}
	if ev.Denials != 6 || ev.Ungated != 3 {
		t.Errorf("evidence totals: %d denials, %d ungated; want 6 and 3", ev.Denials, ev.Ungated)
	}
}

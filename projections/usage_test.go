package projections_test

import (
	"testing"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/projections"
)

func TestStore_Usage(t *testing.T) {
	t.Run("Counts", func(t *testing.T) {
		l, s := newLedger(t), openMem(t)
		apply(t, s, sampleCatalog(l)...)
		apply(t, s,
			l.refer(ruleA, []string{"Steps/1", "Style"}),
			l.refer(ruleA, []string{"Steps/1"}, inSession("s2")),
			l.refer(ruleGone, []string{"Old"}),
			l.refer(ruleB, []string{"Lint"}, failed("stale_rule_hash")),
		)
		got := s.Usage()
		want := []projections.RuleUsage{
			{ID: ruleGone, Refs: 1, Constraints: []projections.ConstraintUsage{{ID: "Old", Refs: 1}}},
			{ID: ruleA, Path: "go/A.md", Kind: content.KindRule, Refs: 3, Constraints: []projections.ConstraintUsage{
				{ID: "Steps/1", Refs: 2}, {ID: "Steps/2", Refs: 0}, {ID: "Style", Refs: 1},
			}},
			{ID: ruleB, Path: "py/B.md", Kind: content.KindRule, Refs: 0, Constraints: []projections.ConstraintUsage{{ID: "Lint", Refs: 0}}},
			{ID: flowC, Path: "workflow/CODING.md", Kind: content.KindWorkflow, Refs: 0, Constraints: []projections.ConstraintUsage{{ID: "CODING", Refs: 0}}},
		}
		if jsonOf(got) != jsonOf(want) {
			t.Errorf("got %s\nwant %s", jsonOf(got), jsonOf(want))
		}
	})
	t.Run("ConstraintNoLongerInBody", func(t *testing.T) {
		l, s := newLedger(t), openMem(t)
		apply(t, s, l.publish(ruleA, content.KindRule, "go/A.md", bodyA), l.refer(ruleA, []string{"Style", "Gone/1"}))
		got := s.Usage()
		want := []projections.ConstraintUsage{{ID: "Gone/1", Refs: 1}, {ID: "Steps/1"}, {ID: "Steps/2"}, {ID: "Style", Refs: 1}}
		if len(got) != 1 || jsonOf(got[0].Constraints) != jsonOf(want) {
			t.Errorf("got %s, want constraints %s", jsonOf(got), jsonOf(want))
		}
	})
}

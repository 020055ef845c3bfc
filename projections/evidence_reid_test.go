package projections_test

import (
	"testing"

	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections"
)

// A catalog.reid moves a rule's evidence to its new id: a session's edits,
// loads and refs before and after it count for the one new id, a ref of
// the old id made before its load stays unsupported, and the rows a
// reopened store loads say the same.
func TestStore_ReidMovesEvidence(t *testing.T) {
	fs := vfs.NewMem()
	s := openAt(t, fs, "/db", projections.Options{})
	l := newLedger(t)
	load := func(id string) events.LoadData {
		return events.LoadData{Items: []events.LoadedItem{{ID: id, Hash: "h", Changed: true}}}
	}
	apply(t, s,
		l.publish(ruleA, "rule", "go/A.md", bodyA, at("2026-01-01T10:00:00.000Z")),
		l.add(events.TypeFileEdit, events.FileEditData{Paths: []string{"a.go"}, Rules: []string{ruleA}}, inSession("s1")),
		l.refer(ruleA, []string{"Style"}, inSession("s1")),
		l.add(events.TypeLoad, load(ruleA), inSession("s1")),
		l.add(events.TypeLoad, load(ruleA), inSession("s2")),
		l.publish(ruleB, "rule", "go/A.md", bodyA, at("2026-01-02T10:00:00.000Z")),
		l.add(events.TypeCatalogReid, events.ReidData{From: ruleA, To: ruleB, Kind: "rule", Path: "go/A.md"}),
		l.add(events.TypeFileEdit, events.FileEditData{Paths: []string{"b.go"}, Rules: []string{ruleB}}, inSession("s1")),
		l.refer(ruleB, []string{"Style"}, inSession("s1")),
		l.refer(ruleB, []string{"Style"}, inSession("s2")),
	)
	check := func(s *projections.Store) {
		t.Helper()
		s1, err := s.SessionEvidence("s1")
		if err != nil {
			t.Fatal(err)
		}
		want := jsonOf([]projections.RuleEvidence{{ID: ruleB, InScope: 2, UnloadedEdits: 1, Loaded: true, Refs: 2, Unsupported: 1, Why: projections.WhyNotLoaded}})
		if got := jsonOf(s1.Rules); got != want {
			t.Errorf("s1: got %s\nwant %s", got, want)
		}
		s2, err := s.SessionEvidence("s2")
		if err != nil {
			t.Fatal(err)
		}
		want = jsonOf([]projections.RuleEvidence{{ID: ruleB, Loaded: true, Refs: 1}})
		if got := jsonOf(s2.Rules); got != want {
			t.Errorf("s2 (loaded under the old id, claimed under the new): got %s\nwant %s", got, want)
		}
		b := s.RuleEvidence(ruleB)
		if b.InScope != 1 || b.Loaded != 2 || b.Referenced != 2 || b.Unsupported != 1 || len(b.Claims) != 1 || b.Claims[0].SessionID != "s1" {
			t.Errorf("evidence of the new id: got %s, want in scope in 1 session, loaded and referenced in 2, 1 unsupported claim of s1", jsonOf(b))
		}
		if a := s.RuleEvidence(ruleA); a.Loaded != 0 || a.Referenced != 0 || a.InScope != 0 || len(a.Claims) != 0 {
			t.Errorf("evidence of the old id: got %s, want none", jsonOf(a))
		}
		if got := projections.Totals(s.Evidence()); len(got) != 1 || got[0].ID != ruleB {
			t.Errorf("totals: got %s, want the new id only", jsonOf(got))
		}
	}
	check(s)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	check(openAt(t, fs, "/db", projections.Options{}))
}

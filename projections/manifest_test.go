package projections_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections"
)

func TestStore_Publish(t *testing.T) {
	t.Run("Object", func(t *testing.T) {
		l, s := newLedger(t), openMem(t)
		ev := l.publish(ruleA, content.KindRule, "go/A.md", bodyA)
		apply(t, s, ev)
		got, err := s.Object(ruleA)
		if err != nil {
			t.Fatalf("object: %v", err)
		}
		want := projections.Object{
			ID: ruleA, Kind: content.KindRule, Path: "go/A.md", Name: "A", Group: "go",
			Hash: content.Hash([]byte(bodyA)), Body: bodyA, Seq: ev.Seq,
			Constraints: content.ParseConstraints("A", bodyA),
		}
		if jsonOf(got) != jsonOf(want) {
			t.Errorf("got %s, want %s", jsonOf(got), jsonOf(want))
		}
		if n := len(got.Constraints); n != 3 {
			t.Errorf("got %d constraints, want 3", n)
		}
	})
	t.Run("ContextHasNoConstraints", func(t *testing.T) {
		l, s := newLedger(t), openMem(t)
		apply(t, s, l.publish(ctxD, content.KindContext, "arch/D.md", bodyA))
		got, err := s.Object(ctxD)
		if err != nil {
			t.Fatalf("object: %v", err)
		}
		if got.Constraints != nil {
			t.Errorf("got constraints %s, want none", jsonOf(got.Constraints))
		}
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		s := openMem(t)
		if _, err := s.Object(ruleA); !errors.Is(err, projections.ErrNotFound) {
			t.Errorf("got %v, want ErrNotFound", err)
		}
	})
	t.Run("MetaPrompt", func(t *testing.T) {
		l, s := newLedger(t), openMem(t)
		apply(t, s, l.publish("", content.KindMPF, content.MetaPromptPath, "be nice"))
		got, err := s.Object(content.MetaPromptPath)
		if err != nil {
			t.Fatalf("object: %v", err)
		}
		if got.Body != "be nice" || got.Kind != content.KindMPF {
			t.Errorf("got %s, want the meta prompt", jsonOf(got))
		}
		if id, ok := s.ObjectIDByPath(content.NSMPF, content.MetaPromptPath); !ok || id != content.MetaPromptPath {
			t.Errorf("got id %q %v, want %q", id, ok, content.MetaPromptPath)
		}
	})
	t.Run("ObjectsSorted", func(t *testing.T) {
		l, s := newLedger(t), openMem(t)
		apply(t, s,
			l.publish(ctxD, content.KindContext, "a/D.md", "d"),
			l.publish(ruleB, content.KindRule, "z/B.md", "b"),
			l.publish(flowC, content.KindWorkflow, "workflow/C.md", "c"),
			l.publish(ruleA, content.KindRule, "a/A.md", "a"),
			l.publish("", content.KindMPF, content.MetaPromptPath, "m"),
		)
		var got []string
		for _, o := range objects(t, s) {
			got = append(got, o.Path)
			if o.Body != "" {
				t.Errorf("got body %q for %s, want none", o.Body, o.ID)
			}
		}
		want := []string{content.MetaPromptPath, "a/A.md", "workflow/C.md", "z/B.md", "a/D.md"}
		if !slices.Equal(got, want) {
			t.Errorf("got %v, want %v", got, want)
		}
	})
	t.Run("PathIndex", func(t *testing.T) {
		l, s := newLedger(t), openMem(t)
		apply(t, s, l.publish(ruleA, content.KindRule, "go/A.md", "a"), l.publish(ctxD, content.KindContext, "go/A.md", "d"))
		if id, _ := s.ObjectIDByPath(content.NSRule, "go/A.md"); id != ruleA {
			t.Errorf("rule namespace: got %q, want %q", id, ruleA)
		}
		if id, _ := s.ObjectIDByPath(content.NSContext, "go/A.md"); id != ctxD {
			t.Errorf("context namespace: got %q, want %q", id, ctxD)
		}
		if id, ok := s.ObjectIDByPath(content.NSRule, "go/B.md"); ok {
			t.Errorf("unknown path: got %q, want none", id)
		}
	})
	t.Run("PathChangeMovesIndex", func(t *testing.T) {
		l, s := newLedger(t), openMem(t)
		apply(t, s, l.publish(ruleA, content.KindRule, "go/A.md", "a"))
		apply(t, s, l.publish(ruleA, content.KindRule, "go/A2.md", "a2"))
		if id, ok := s.ObjectIDByPath(content.NSRule, "go/A.md"); ok {
			t.Errorf("old path: got %q, want none", id)
		}
		if id, _ := s.ObjectIDByPath(content.NSRule, "go/A2.md"); id != ruleA {
			t.Errorf("new path: got %q, want %q", id, ruleA)
		}
		if got, _ := s.Object(ruleA); got.Body != "a2" || got.Name != "A2" {
			t.Errorf("got %s, want the new version", jsonOf(got))
		}
		if n := len(objects(t, s)); n != 1 {
			t.Errorf("got %d objects, want 1", n)
		}
	})
	t.Run("Remove", func(t *testing.T) {
		l, s := newLedger(t), openMem(t)
		apply(t, s,
			l.publish(ruleA, content.KindRule, "go/A.md", bodyA),
			l.refer(ruleA, []string{"Style"}),
			l.add(events.TypeCatalogRemove, events.RemoveData{ID: ruleA, Kind: "rule", Path: "go/A.md"}),
		)
		if _, err := s.Object(ruleA); !errors.Is(err, projections.ErrNotFound) {
			t.Errorf("object: got %v, want ErrNotFound", err)
		}
		if id, ok := s.ObjectIDByPath(content.NSRule, "go/A.md"); ok {
			t.Errorf("path index: got %q, want none", id)
		}
		if u := s.Usage(); len(u) != 1 || u[0].ID != ruleA || u[0].Refs != 1 {
			t.Errorf("usage: got %s, want the refs kept", jsonOf(u))
		}
	})
}

package projections_test

import (
	"context"
	"errors"
	"testing"

	"github.com/clumsies/clumsies/catalog"
	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections"
)

// sampleCatalog publishes a small catalog: two rules, a workflow, a context file
// and the meta prompt.
func sampleCatalog(l *ledger) []events.Event {
	l.tb.Helper()
	return []events.Event{
		l.publish("", content.KindMPF, content.MetaPromptPath, "meta"),
		l.publish(ruleA, content.KindRule, "go/A.md", bodyA),
		l.publish(ruleB, content.KindRule, "py/B.md", "## Lint\nRun ruff.\n"),
		l.publish(flowC, content.KindWorkflow, "workflow/CODING.md", "Commit often."),
		l.add(events.TypeCatalogPublish, events.PublishData{
			ID: ctxD, Kind: "context", Path: "arch/DESIGN.md", Name: "DESIGN", Group: "arch",
			Hash: content.Hash([]byte("ctx")), Body: "ctx", Description: "The Big Picture",
		}),
	}
}

func TestStore_View(t *testing.T) {
	const tmp = "tmp-rule-0123456789ab"
	hashA := content.Hash([]byte(bodyA))

	t.Run("Published", func(t *testing.T) {
		l, s := newLedger(t), openMem(t)
		apply(t, s, sampleCatalog(l)...)
		got := mustView(t, s, ruleA)
		if got.Body != bodyA || got.Hash != hashA || got.HasDraft || !got.Published || len(got.Constraints) != 3 {
			t.Errorf("got %s, want the published rule", jsonOf(got))
		}
	})
	t.Run("MetaPrompt", func(t *testing.T) {
		l, s := newLedger(t), openMem(t)
		apply(t, s, sampleCatalog(l)...)
		if got := mustView(t, s, content.MetaPromptPath); got.Body != "meta" || got.Constraints != nil {
			t.Errorf("got %s, want the meta prompt without constraints", jsonOf(got))
		}
	})
	t.Run("Update", func(t *testing.T) {
		l, s := newLedger(t), openMem(t)
		apply(t, s, sampleCatalog(l)...)
		body := "## Only\nOne rule.\n"
		published := mustView(t, s, ruleA)
		apply(t, s, l.add(events.TypeDraftUpdate, events.DraftData{Resource: "rule", ID: ruleA, Body: body, BaseHash: hashA}))
		got := mustView(t, s, ruleA)
		want := projections.Item{
			ID: ruleA, Kind: content.KindRule, Path: "go/A.md", Name: "A", Group: "go",
			Hash: content.Hash([]byte(body)), Body: body, Constraints: content.ParseConstraints("A", body),
			ConstraintsHash: projections.ConstraintsHash(content.ParseConstraints("A", body)),
			HasDraft:        true, DraftOp: events.DraftOpUpdate, DraftBaseHash: hashA, DraftStatus: catalog.StatusDraft, Published: true,
			InForce: &published,
		}
		if published.Body != bodyA || published.Hash != hashA || published.InForce != nil {
			t.Fatalf("published: got %s, want the rule as published", jsonOf(published))
		}
		if jsonOf(got) != jsonOf(want) {
			t.Errorf("got %s, want %s", jsonOf(got), jsonOf(want))
		}
	})
	t.Run("UpdateOfMetaPrompt", func(t *testing.T) {
		l, s := newLedger(t), openMem(t)
		apply(t, s, sampleCatalog(l)...)
		apply(t, s, l.add(events.TypeDraftUpdate, events.DraftData{Resource: "mpf", ID: content.MetaPromptPath, Body: "meta 2"}))
		got := mustView(t, s, content.MetaPromptPath)
		if got.Body != "meta 2" || got.DraftBaseHash != content.Hash([]byte("meta")) {
			t.Errorf("got %s, want the draft over the published hash", jsonOf(got))
		}
	})
	t.Run("Rename", func(t *testing.T) {
		l, s := newLedger(t), openMem(t)
		apply(t, s, sampleCatalog(l)...)
		apply(t, s, l.add(events.TypeDraftRename, events.DraftData{Resource: "rule", ID: ruleA, Path: "go/A.md", NewPath: "workflow/A2.md"}))
		got := mustView(t, s, ruleA)
		if got.Path != "workflow/A2.md" || got.Name != "A2" || got.Group != "workflow" || got.Kind != content.KindWorkflow ||
			got.Body != bodyA || got.Hash != hashA || got.DraftOp != events.DraftOpRename ||
			got.InForce == nil || got.InForce.Path != "go/A.md" || got.InForce.Hash != hashA {
			t.Errorf("got %s, want the published rule at its new path", jsonOf(got))
		}
	})
	t.Run("DeleteHides", func(t *testing.T) {
		l, s := newLedger(t), openMem(t)
		apply(t, s, sampleCatalog(l)...)
		apply(t, s, l.add(events.TypeDraftDelete, events.DraftData{Resource: "rule", ID: ruleA}))
		if _, err := s.View(context.Background(), ruleA); !errors.Is(err, projections.ErrNotFound) {
			t.Errorf("got %v, want ErrNotFound", err)
		}
	})
	t.Run("Create", func(t *testing.T) {
		l, s := newLedger(t), openMem(t)
		apply(t, s, l.add(events.TypeDraftCreate, events.DraftData{Resource: "rule", ID: tmp, Path: "go/NEW.md", Body: bodyA}))
		got := mustView(t, s, tmp)
		want := projections.Item{
			ID: tmp, Kind: content.KindRule, Path: "go/NEW.md", Name: "NEW", Group: "go",
			Hash: hashA, Description: catalog.Describe(bodyA), Body: bodyA, Constraints: content.ParseConstraints("NEW", bodyA),
			ConstraintsHash: projections.ConstraintsHash(content.ParseConstraints("NEW", bodyA)),
			HasDraft:        true, DraftOp: events.DraftOpCreate, DraftStatus: catalog.StatusDraft,
		}
		if jsonOf(got) != jsonOf(want) {
			t.Errorf("got %s, want %s", jsonOf(got), jsonOf(want))
		}
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		s := openMem(t)
		if _, err := s.View(context.Background(), "p-unknown"); !errors.Is(err, projections.ErrNotFound) {
			t.Errorf("got %v, want ErrNotFound", err)
		}
	})
}

func TestStore_List(t *testing.T) {
	const tmp = "tmp-context-0123456789ab"
	ids := func(items []projections.Item) []string {
		var out []string
		for _, it := range items {
			out = append(out, it.ID)
		}
		return out
	}

	t.Run("Inventory", func(t *testing.T) {
		l, s := newLedger(t), openMem(t)
		apply(t, s, sampleCatalog(l)...)
		got := mustList(t, s, projections.Filter{})
		if want := []string{ruleA, ruleB, flowC, ctxD}; jsonOf(ids(got)) != jsonOf(want) {
			t.Fatalf("got %v, want %v (no meta prompt, sorted by namespace and path)", ids(got), want)
		}
		for _, it := range got {
			if it.Body != "" || it.Constraints != nil || !it.Published || it.HasDraft {
				t.Errorf("got %s, want metadata of a published object", jsonOf(it))
			}
		}
		if got[3].Description != "The Big Picture" {
			t.Errorf("got description %q, want %q", got[3].Description, "The Big Picture")
		}
	})
	t.Run("DraftOverlay", func(t *testing.T) {
		l, s := newLedger(t), openMem(t)
		apply(t, s, sampleCatalog(l)...)
		apply(t, s,
			l.add(events.TypeDraftUpdate, events.DraftData{Resource: "rule", ID: ruleA, Body: "x", BaseHash: content.Hash([]byte(bodyA))}),
			l.add(events.TypeDraftRename, events.DraftData{Resource: "rule", ID: ruleB, Path: "py/B.md", NewPath: "a/B.md"}),
			l.add(events.TypeDraftDelete, events.DraftData{Resource: "rule", ID: flowC}),
			l.add(events.TypeDraftCreate, events.DraftData{Resource: "context", ID: tmp, Path: "arch/ADR.md", Body: "adr"}),
			l.add(events.TypeDraftCreate, events.DraftData{Resource: "mpf", ID: "tmp-mpf-0123456789ab", Path: content.MetaPromptPath, Body: "m"}),
		)
		got := mustList(t, s, projections.Filter{})
		if want := []string{ruleB, ruleA, tmp, ctxD}; jsonOf(ids(got)) != jsonOf(want) {
			t.Fatalf("got %v, want %v", ids(got), want)
		}
		if b := got[0]; b.Path != "a/B.md" || b.Group != "a" || !b.HasDraft || b.DraftOp != events.DraftOpRename {
			t.Errorf("renamed: got %s, want the new path", jsonOf(b))
		}
		if a := got[1]; a.Hash != content.Hash([]byte("x")) || a.DraftBaseHash != content.Hash([]byte(bodyA)) || !a.HasDraft {
			t.Errorf("updated: got %s, want the draft hash over the published one", jsonOf(a))
		}
		if c := got[2]; c.Published || c.Kind != content.KindContext || c.Path != "arch/ADR.md" || c.Hash != content.Hash([]byte("adr")) {
			t.Errorf("created: got %s, want the create draft", jsonOf(c))
		}
	})
	t.Run("Filter", func(t *testing.T) {
		l, s := newLedger(t), openMem(t)
		apply(t, s, sampleCatalog(l)...)
		apply(t, s, l.add(events.TypeDraftCreate, events.DraftData{Resource: "context", ID: tmp, Path: "arch/ADR.md", Body: "# ADR\n\nA decision record.\n", Description: "a note to the reviewer"}))
		tests := []struct {
			name   string
			filter projections.Filter
			want   []string
		}{
			{"Kind", projections.Filter{Kind: "workflow"}, []string{flowC}},
			{"KindIsExact", projections.Filter{Kind: "rul"}, nil},
			{"Group", projections.Filter{Group: "arch"}, []string{tmp, ctxD}},
			{"QueryPath", projections.Filter{Query: "py/"}, []string{ruleB}},
			{"QueryCaseInsensitive", projections.Filter{Query: "big PICTURE"}, []string{ctxD}},
			{"QueryEveryWord", projections.Filter{Query: "big nothing"}, nil},
			{"QueryID", projections.Filter{Query: ruleA[20:]}, []string{ruleA}},
			{"QueryName", projections.Filter{Query: "coding"}, []string{flowC}},
			{"QueryDraftDescription", projections.Filter{Query: "decision"}, []string{tmp}}, // described by its body
			{"QueryNotTheNote", projections.Filter{Query: "reviewer"}, nil},
			{"QueryNotAcrossFields", projections.Filter{Query: "dArch"}, nil}, // ctxD ends in "d", its path starts with "arch"
			{"KindAndQuery", projections.Filter{Kind: "rule", Query: "go"}, []string{ruleA}},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				if got := ids(mustList(t, s, tt.filter)); jsonOf(got) != jsonOf(tt.want) {
					t.Errorf("got %v, want %v", got, tt.want)
				}
			})
		}
	})
}

// TestStore_ViewConstraintsHash checks the hash of a rule's constraints
// that View keeps with the rule's row: it is the hash of the constraints
// served, read again it is the same, and a publish that changes a
// constraint changes it (the kept one is not served past its version),
// while a publish that changes only the title keeps it.
func TestStore_ViewConstraintsHash(t *testing.T) {
	l, s := newLedger(t), openMem(t)
	apply(t, s, sampleCatalog(l)...)
	check := func(what string) projections.Item {
		t.Helper()
		it := mustView(t, s, ruleA)
		if want := projections.ConstraintsHash(it.Constraints); it.ConstraintsHash != want {
			t.Fatalf("%s: ConstraintsHash %s, want the hash of the constraints served, %s", what, it.ConstraintsHash, want)
		}
		if v := projections.VersionOf(it); v.Constraints != it.ConstraintsHash || v.Hash != it.Hash {
			t.Fatalf("%s: VersionOf %+v, want the item's hashes", what, v)
		}
		return it
	}
	first := check("published")
	if again := check("read again (from the row cache)"); again.ConstraintsHash != first.ConstraintsHash {
		t.Fatalf("read again: %s, want %s", again.ConstraintsHash, first.ConstraintsHash)
	}

	edited := "# A\n\n## Steps\n- one\n- three\n\n## Style\nUse gofmt.\n"
	apply(t, s, l.publish(ruleA, content.KindRule, "go/A.md", edited))
	changed := check("a constraint edited")
	if changed.ConstraintsHash == first.ConstraintsHash {
		t.Fatal("a constraint edited kept the hash of the constraints before")
	}

	retitled := "# A, renamed\n\n## Steps\n- one\n- three\n\n## Style\nUse gofmt.\n"
	apply(t, s, l.publish(ruleA, content.KindRule, "go/A.md", retitled))
	if it := check("the title edited"); it.ConstraintsHash != changed.ConstraintsHash || it.Hash == changed.Hash {
		t.Fatalf("the title edited: hash %s, constraints %s; want a new body hash and the constraints' hash %s", it.Hash, it.ConstraintsHash, changed.ConstraintsHash)
	}

	if ctx := mustView(t, s, ctxD); ctx.ConstraintsHash != "" || projections.VersionOf(ctx).Constraints != "" {
		t.Fatalf("a context item has a constraints hash: %s", jsonOf(ctx))
	}
}

// TestVersionOf_WithoutKeptHash checks that an item whose constraints
// hash was not set (a team object, an owner of an earlier version) gets
// it computed.
func TestVersionOf_WithoutKeptHash(t *testing.T) {
	cs := content.ParseConstraints("A", bodyA)
	it := projections.Item{Kind: content.KindRule, Hash: "h", Constraints: cs}
	if got, want := projections.VersionOf(it).Constraints, projections.ConstraintsHash(cs); got != want {
		t.Fatalf("VersionOf: %s, want %s", got, want)
	}
}

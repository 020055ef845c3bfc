package projections_test

import (
	"errors"
	"testing"

	"github.com/clumsies/clumsies/catalog"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections"
)

func TestStore_Drafts(t *testing.T) {
	const tmp = "tmp-rule-0123456789ab"
	create := events.DraftData{Resource: "rule", ID: tmp, Path: "go/NEW.md", Body: "new", Description: "first"}

	t.Run("Create", func(t *testing.T) {
		l, s := newLedger(t), openMem(t)
		ev := l.add(events.TypeDraftCreate, create, inSession("s7"))
		apply(t, s, ev)
		got, err := s.Draft(tmp)
		if err != nil {
			t.Fatalf("draft: %v", err)
		}
		want := catalog.Draft{ID: tmp, Resource: "rule", Op: events.DraftOpCreate, Path: "go/NEW.md",
			Body: "new", Description: "first", SessionID: "s7", Seq: ev.Seq, Status: catalog.StatusDraft}
		if got != want {
			t.Errorf("got %s, want %s", jsonOf(got), jsonOf(want))
		}
	})
	t.Run("UpdateOfCreateStaysCreate", func(t *testing.T) {
		l, s := newLedger(t), openMem(t)
		apply(t, s,
			l.add(events.TypeDraftCreate, create),
			l.add(events.TypeDraftUpdate, events.DraftData{Resource: "rule", ID: tmp, Body: "newer"}),
		)
		got, _ := s.Draft(tmp)
		if got.Op != events.DraftOpCreate || got.Body != "newer" || got.Description != "first" || got.Path != "go/NEW.md" {
			t.Errorf("got %s, want a create draft with the new body and the old description", jsonOf(got))
		}
	})
	t.Run("Update", func(t *testing.T) {
		l, s := newLedger(t), openMem(t)
		apply(t, s, l.add(events.TypeDraftUpdate, events.DraftData{Resource: "rule", ID: ruleA, Body: "b", BaseHash: "sha256:base"}))
		got, _ := s.Draft(ruleA)
		if got.Op != events.DraftOpUpdate || got.Body != "b" || got.BaseHash != "sha256:base" {
			t.Errorf("got %s, want an update draft", jsonOf(got))
		}
	})
	t.Run("Rename", func(t *testing.T) {
		l, s := newLedger(t), openMem(t)
		apply(t, s, l.add(events.TypeDraftRename, events.DraftData{Resource: "rule", ID: ruleA, Path: "go/A.md", NewPath: "go/B.md"}))
		got, _ := s.Draft(ruleA)
		if got.Op != events.DraftOpRename || got.Path != "go/A.md" || got.NewPath != "go/B.md" {
			t.Errorf("got %s, want a rename draft", jsonOf(got))
		}
	})
	t.Run("Delete", func(t *testing.T) {
		l, s := newLedger(t), openMem(t)
		apply(t, s,
			l.add(events.TypeDraftUpdate, events.DraftData{Resource: "rule", ID: ruleA, Body: "b"}),
			l.add(events.TypeDraftDelete, events.DraftData{Resource: "rule", ID: ruleA}),
		)
		got, _ := s.Draft(ruleA)
		if got.Op != events.DraftOpDelete || got.Body != "" {
			t.Errorf("got %s, want a delete draft replacing the update", jsonOf(got))
		}
	})
	t.Run("DeleteOfCreateDiscards", func(t *testing.T) {
		l, s := newLedger(t), openMem(t)
		apply(t, s, l.add(events.TypeDraftCreate, create), l.add(events.TypeDraftDelete, events.DraftData{Resource: "rule", ID: tmp}))
		if _, err := s.Draft(tmp); !errors.Is(err, projections.ErrNotFound) {
			t.Errorf("got %v, want ErrNotFound", err)
		}
	})
	t.Run("Discard", func(t *testing.T) {
		l, s := newLedger(t), openMem(t)
		apply(t, s,
			l.add(events.TypeDraftRename, events.DraftData{Resource: "rule", ID: ruleA, NewPath: "x/A.md"}),
			l.add(events.TypeDraftDiscard, events.DraftData{Resource: "rule", ID: ruleA}),
		)
		if n := len(allDrafts(t, s)); n != 0 {
			t.Errorf("got %d drafts, want 0", n)
		}
	})
	t.Run("Submit", func(t *testing.T) {
		l, s := newLedger(t), openMem(t)
		apply(t, s, l.add(events.TypeDraftCreate, create))
		ev := l.add(events.TypeDraftSubmit, events.ReviewData{DraftID: tmp})
		apply(t, s, ev)
		got, _ := s.Draft(tmp)
		if got.Status != catalog.StatusInReview || got.Seq != ev.Seq || got.Body != create.Body {
			t.Errorf("got %s, want in_review at seq %d with its body", jsonOf(got), ev.Seq)
		}
	})
	finals := map[events.Type]catalog.DraftStatus{
		events.TypeDraftApply: catalog.StatusApplied, events.TypeDraftDecline: catalog.StatusDeclined, events.TypeDraftConflict: catalog.StatusConflicted,
	}
	for typ, status := range finals {
		t.Run(string(typ), func(t *testing.T) {
			l, s := newLedger(t), openMem(t)
			apply(t, s,
				l.add(events.TypeDraftCreate, create),
				l.add(events.TypeDraftSubmit, events.ReviewData{DraftID: tmp}),
			)
			outcome := l.add(typ, events.ReviewData{DraftID: tmp, Reviewer: "rev", Reason: "why", Diff: "-a\n+b\n"})
			apply(t, s, outcome)
			if n := len(allDrafts(t, s)); n != 0 {
				t.Errorf("got %d open drafts, want 0", n)
			}
			closed := closedDrafts(t, s)
			if len(closed) != 1 {
				t.Fatalf("got closed drafts %s, want one", jsonOf(closed))
			}
			c := closed[0]
			if c.ID != tmp || c.Status != status || c.Reason != "why" || c.Reviewer != "rev" || c.Diff != "-a\n+b\n" || c.Body != create.Body || c.Seq != outcome.Seq {
				t.Errorf("got %s, want %s at seq %d with the reason, reviewer, diff and body", jsonOf(c), status, outcome.Seq)
			}
		})
	}
	t.Run("StagedAgainAfterDecline", func(t *testing.T) {
		l, s := newLedger(t), openMem(t)
		apply(t, s,
			l.add(events.TypeDraftCreate, create),
			l.add(events.TypeDraftDecline, events.ReviewData{DraftID: tmp, Reason: "no"}),
			l.add(events.TypeDraftCreate, events.DraftData{Resource: "rule", ID: tmp, Op: events.DraftOpCreate, Path: create.Path, Body: "second"}),
		)
		open, err := s.Draft(tmp)
		if err != nil || open.Status != catalog.StatusDraft || open.Body != "second" {
			t.Fatalf("open draft: got %s, %v; want the second body, status draft", jsonOf(open), err)
		}
		hist, err := s.DraftHistory(tmp)
		if err != nil || len(hist) != 1 || hist[0].Body != create.Body || hist[0].Status != catalog.StatusDeclined {
			t.Fatalf("history: got %s, %v; want the declined first draft with its body", jsonOf(hist), err)
		}
	})
	t.Run("OutcomeWithoutOpenDraftChangesNothing", func(t *testing.T) {
		l, s := newLedger(t), openMem(t)
		apply(t, s, l.add(events.TypeDraftDecline, events.ReviewData{DraftID: ruleA, Reason: "no"}))
		if n, c := len(allDrafts(t, s)), len(closedDrafts(t, s)); n != 0 || c != 0 {
			t.Errorf("got %d open and %d closed drafts, want none", n, c)
		}
	})
	t.Run("DraftsSorted", func(t *testing.T) {
		l, s := newLedger(t), openMem(t)
		apply(t, s,
			l.add(events.TypeDraftDelete, events.DraftData{Resource: "rule", ID: ruleB}),
			l.add(events.TypeDraftCreate, create),
			l.add(events.TypeDraftDelete, events.DraftData{Resource: "rule", ID: ruleA}),
		)
		var got []string
		for _, d := range allDrafts(t, s) {
			got = append(got, d.ID)
		}
		if want := []string{ruleA, ruleB, tmp}; jsonOf(got) != jsonOf(want) {
			t.Errorf("got %v, want %v", got, want)
		}
	})
	t.Run("FailedCallChangesNothing", func(t *testing.T) {
		l, s := newLedger(t), openMem(t)
		apply(t, s, l.add(events.TypeDraftCreate, create, failed("draft_exists")))
		if n := len(allDrafts(t, s)); n != 0 {
			t.Errorf("got %d drafts, want 0", n)
		}
	})
}

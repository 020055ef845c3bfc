package catalog_test

import (
	"errors"
	"testing"

	"github.com/clumsies/clumsies/catalog"
	"github.com/clumsies/clumsies/events"
)

// TestDecideReview follows the review table of catalog/review.go: each row
// is the status of the open draft and an outcome, with what the table
// gives; an accepted decision, folded, leaves the status it names.
func TestDecideReview(t *testing.T) {
	withStatus := func(s catalog.DraftStatus) *catalog.Draft {
		d := draftOf(events.DraftOpUpdate, me)
		d.Status, d.Body = s, "new body"
		return d
	}
	review := func(typ events.Type, reason string) catalog.ReviewCommand {
		return catalog.ReviewCommand{Type: typ, Data: events.ReviewData{DraftID: ruleID, Reviewer: "ann", Reason: reason}}
	}
	tests := []struct {
		name       string
		draft      *catalog.Draft
		cmd        catalog.ReviewCommand
		wantStatus catalog.DraftStatus
		wantCode   events.Code
	}{
		{"SubmitWithoutDraft", nil, review(events.TypeDraftSubmit, ""), "", events.CodeNotFound},
		{"ApplyWithoutDraft", nil, review(events.TypeDraftApply, ""), "", events.CodeNotFound},
		{"DeclineWithoutDraft", nil, review(events.TypeDraftDecline, "no"), "", events.CodeNotFound},
		{"ConflictWithoutDraft", nil, review(events.TypeDraftConflict, "changed"), "", events.CodeNotFound},
		{"SubmitADraft", withStatus(catalog.StatusDraft), review(events.TypeDraftSubmit, ""), catalog.StatusInReview, ""},
		{"ApplyADraft", withStatus(catalog.StatusDraft), review(events.TypeDraftApply, ""), catalog.StatusApplied, ""},
		{"DeclineADraft", withStatus(catalog.StatusDraft), review(events.TypeDraftDecline, "no"), catalog.StatusDeclined, ""},
		{"ConflictADraft", withStatus(catalog.StatusDraft), review(events.TypeDraftConflict, "changed"), catalog.StatusConflicted, ""},
		{"SubmitAgain", withStatus(catalog.StatusInReview), review(events.TypeDraftSubmit, ""), "", events.CodeIncompatibleDraft},
		{"AcceptInReview", withStatus(catalog.StatusInReview), review(events.TypeDraftApply, ""), catalog.StatusApplied, ""},
		{"DeclineInReview", withStatus(catalog.StatusInReview), review(events.TypeDraftDecline, "no"), catalog.StatusDeclined, ""},
		{"ConflictInReview", withStatus(catalog.StatusInReview), review(events.TypeDraftConflict, "changed"), catalog.StatusConflicted, ""},
		{"DeclineNeedsAReason", withStatus(catalog.StatusDraft), review(events.TypeDraftDecline, ""), "", events.CodeInvalidParams},
		{"ConflictNeedsAReason", withStatus(catalog.StatusDraft), review(events.TypeDraftConflict, ""), "", events.CodeInvalidParams},
		{"ClosedDraftIsNotOpen", withStatus(catalog.StatusApplied), review(events.TypeDraftDecline, "no"), "", events.CodeNotFound},
		{"NotAReviewType", withStatus(catalog.StatusDraft), review(events.TypeDraftUpdate, ""), "", events.CodeInvalidParams},
		{"DraftChangedSinceReviewed", withStatus(catalog.StatusDraft), catalog.ReviewCommand{Type: events.TypeDraftApply, Seq: 6, Data: events.ReviewData{DraftID: ruleID}}, "", events.CodeIncompatibleDraft},
		{"DraftAsReviewed", withStatus(catalog.StatusDraft), catalog.ReviewCommand{Type: events.TypeDraftApply, Seq: 7, Data: events.ReviewData{DraftID: ruleID}}, catalog.StatusApplied, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := catalog.DecideReview(catalog.DraftFacts{Seq: 7, Object: published, Draft: tt.draft}, tt.cmd)
			if tt.wantCode != "" {
				var de *catalog.DraftError
				if !errors.As(err, &de) || de.Code != tt.wantCode {
					t.Fatalf("got %v, want a %s refusal", err, tt.wantCode)
				}
				return
			}
			if err != nil {
				t.Fatalf("got %v, want %s", err, tt.wantStatus)
			}
			if d.Type != tt.cmd.Type || d.Draft.Status != tt.wantStatus || d.Data != tt.cmd.Data {
				t.Fatalf("got %s leaving %s with %+v, want %s leaving %s with the command's data", d.Type, d.Draft.Status, d.Data, tt.cmd.Type, tt.wantStatus)
			}
			ev := events.Event{Type: d.Type, Outcome: events.OutcomeOK, Seq: 9}
			got := catalog.EvolveDraft(tt.draft, &ev, &d.Data)
			if got == nil || got.Status != tt.wantStatus || got.Seq != 9 || got.Body != tt.draft.Body || got.SessionID != me {
				t.Fatalf("fold gave %+v, want the draft %s at seq 9, body and session kept", got, tt.wantStatus)
			}
			if tt.wantStatus.Final() && (got.Reason != tt.cmd.Data.Reason || got.Reviewer != tt.cmd.Data.Reviewer) {
				t.Fatalf("fold gave %+v, want the reason and reviewer of the outcome", got)
			}
			if tt.draft.Status == tt.wantStatus {
				t.Fatalf("the fold changed the draft it was given")
			}
		})
	}
}

// TestEvolveDraft_Review folds review events where they do not apply: they
// change nothing.
func TestEvolveDraft_Review(t *testing.T) {
	ev := func(typ events.Type) *events.Event {
		return &events.Event{Type: typ, Outcome: events.OutcomeOK, Seq: 9}
	}
	if got := catalog.EvolveDraft(nil, ev(events.TypeDraftApply), &events.ReviewData{DraftID: ruleID}); got != nil {
		t.Fatalf("apply without a draft: got %+v, want none", got)
	}
	closed := draftOf(events.DraftOpUpdate, me)
	closed.Status = catalog.StatusDeclined
	if got := catalog.EvolveDraft(closed, ev(events.TypeDraftApply), &events.ReviewData{DraftID: ruleID}); got != closed {
		t.Fatalf("apply of a closed draft: got %+v, want it unchanged", got)
	}
	open := draftOf(events.DraftOpUpdate, me)
	open.Status = catalog.StatusDraft
	failed := &events.Event{Type: events.TypeDraftDecline, Outcome: events.OutcomeError, Seq: 9}
	if got := catalog.EvolveDraft(open, failed, &events.ReviewData{DraftID: ruleID, Reason: "x"}); got != open {
		t.Fatalf("a failed event changed the draft: %+v", got)
	}
}

// TestDraftStatus_Final pins which statuses close a draft.
func TestDraftStatus_Final(t *testing.T) {
	for s, want := range map[catalog.DraftStatus]bool{
		catalog.StatusDraft: false, catalog.StatusInReview: false,
		catalog.StatusApplied: true, catalog.StatusDeclined: true, catalog.StatusConflicted: true,
	} {
		if s.Final() != want {
			t.Errorf("%s.Final(): got %t, want %t", s, !want, want)
		}
	}
}

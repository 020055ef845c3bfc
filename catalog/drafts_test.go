package catalog_test

import (
	"errors"
	"testing"

	"github.com/clumsies/clumsies/catalog"
	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
)

const (
	ruleID = "p-0123456789abcdef0123456789abcdef"
	me     = "session-me"
	other  = "session-other"
)

var published = &catalog.Target{ID: ruleID, Kind: content.KindRule, Path: "go/A.md", Hash: "sha256:aa"}

func draftOf(op events.DraftOp, session string) *catalog.Draft {
	d := &catalog.Draft{ID: ruleID, Resource: events.ResourceRule, Op: op, Path: "go/A.md", SessionID: session, Seq: 7}
	if op == events.DraftOpRename {
		d.NewPath = "go/B.md"
	}
	return d
}

func cmd(op events.DraftOp) catalog.DraftCommand {
	c := catalog.DraftCommand{Session: me, Resource: events.ResourceRule, Op: op, ID: ruleID, Body: "new body"}
	switch op {
	case events.DraftOpCreate:
		c.ID, c.Path = "", "go/NEW.md"
	case events.DraftOpRename:
		c.NewPath = "go/C.md"
	}
	return c
}

// TestDecideDraft follows the decision table of the drafts aggregate
// (catalog/drafts.go, PROTOCOL.md "artifact details"): each row is an
// existing state and an operation, with the outcome the table gives.
func TestDecideDraft(t *testing.T) {
	tmp := catalog.TmpID(events.ResourceRule, "go/NEW.md")
	createDraft := &catalog.Draft{ID: tmp, Resource: events.ResourceRule, Op: events.DraftOpCreate, Path: "go/NEW.md", SessionID: me}
	submitted := draftOf(events.DraftOpUpdate, me)
	submitted.Status = catalog.StatusInReview
	tests := []struct {
		name     string
		facts    catalog.DraftFacts
		cmd      catalog.DraftCommand
		wantType events.Type
		wantOp   events.DraftOp // the draft after the event
		wantCode events.Code
	}{
		{"CreateOnAFreePath", catalog.DraftFacts{}, cmd(events.DraftOpCreate), events.TypeDraftCreate, events.DraftOpCreate, ""},
		{"CreateOnAHeldPath", catalog.DraftFacts{Holder: ruleID}, cmd(events.DraftOpCreate), "", "", events.CodeDraftExists},
		{"UpdateOfAPublishedObject", catalog.DraftFacts{Object: published}, cmd(events.DraftOpUpdate), events.TypeDraftUpdate, events.DraftOpUpdate, ""},
		{"UpdateReplacesOwnUpdateDraft", catalog.DraftFacts{Object: published, Draft: draftOf(events.DraftOpUpdate, me)}, cmd(events.DraftOpUpdate), events.TypeDraftUpdate, events.DraftOpUpdate, ""},
		{"UpdateOfCreateDraftStaysACreate", catalog.DraftFacts{Draft: createDraft}, catalog.DraftCommand{Session: me, Resource: events.ResourceRule, Op: events.DraftOpUpdate, ID: tmp, Body: "b"}, events.TypeDraftUpdate, events.DraftOpCreate, ""},
		{"UpdateOverRenameIsIncompatible", catalog.DraftFacts{Object: published, Draft: draftOf(events.DraftOpRename, me)}, cmd(events.DraftOpUpdate), "", "", events.CodeIncompatibleDraft},
		{"UpdateOverDeleteIsIncompatible", catalog.DraftFacts{Object: published, Draft: draftOf(events.DraftOpDelete, me)}, cmd(events.DraftOpUpdate), "", "", events.CodeIncompatibleDraft},
		{"UpdateOfAnotherSessionsDraft", catalog.DraftFacts{Object: published, Draft: draftOf(events.DraftOpUpdate, other)}, cmd(events.DraftOpUpdate), "", "", events.CodeIncompatibleDraft},
		{"UpdateOfASubmittedDraft", catalog.DraftFacts{Object: published, Draft: submitted}, cmd(events.DraftOpUpdate), "", "", events.CodeIncompatibleDraft},
		{"UpdateOfAnUnknownID", catalog.DraftFacts{}, cmd(events.DraftOpUpdate), "", "", events.CodeNotFound},
		{"UpdateOfALeftoverDraft", catalog.DraftFacts{Draft: draftOf(events.DraftOpUpdate, me)}, cmd(events.DraftOpUpdate), "", "", events.CodeNotFound},
		{"UpdateWithTheWrongResource", catalog.DraftFacts{Object: published}, catalog.DraftCommand{Session: me, Resource: events.ResourceContext, Op: events.DraftOpUpdate, ID: ruleID, Body: "b"}, "", "", events.CodeInvalidTargetKind},
		{"RenameToAFreePath", catalog.DraftFacts{Object: published}, cmd(events.DraftOpRename), events.TypeDraftRename, events.DraftOpRename, ""},
		{"RenameReplacesOwnTarget", catalog.DraftFacts{Object: published, Draft: draftOf(events.DraftOpRename, me)}, cmd(events.DraftOpRename), events.TypeDraftRename, events.DraftOpRename, ""},
		{"RenameOntoAHeldPath", catalog.DraftFacts{Object: published, Holder: "p-other"}, cmd(events.DraftOpRename), "", "", events.CodeDraftExists},
		{"RenameToItsOwnPath", catalog.DraftFacts{Object: published}, catalog.DraftCommand{Session: me, Resource: events.ResourceRule, Op: events.DraftOpRename, ID: ruleID, NewPath: "go/A.md"}, "", "", events.CodeInvalidParams},
		{"RenameOfACreateDraft", catalog.DraftFacts{Draft: createDraft}, catalog.DraftCommand{Session: me, Resource: events.ResourceRule, Op: events.DraftOpRename, ID: tmp, NewPath: "go/X.md"}, "", "", events.CodeIncompatibleDraft},
		{"RenameOverUpdateIsIncompatible", catalog.DraftFacts{Object: published, Draft: draftOf(events.DraftOpUpdate, me)}, cmd(events.DraftOpRename), "", "", events.CodeIncompatibleDraft},
		{"RenameOfAnotherSessionsDraft", catalog.DraftFacts{Object: published, Draft: draftOf(events.DraftOpRename, other)}, cmd(events.DraftOpRename), "", "", events.CodeIncompatibleDraft},
		{"RenameOfTheMetaPrompt", catalog.DraftFacts{}, catalog.DraftCommand{Session: me, Resource: events.ResourceMPF, Op: events.DraftOpRename, ID: content.MetaPromptPath, NewPath: "x.md"}, "", "", events.CodeInvalidTargetKind},
		{"DeleteOfAPublishedObject", catalog.DraftFacts{Object: published}, cmd(events.DraftOpDelete), events.TypeDraftDelete, events.DraftOpDelete, ""},
		{"DeleteAgainChangesNothing", catalog.DraftFacts{Object: published, Draft: draftOf(events.DraftOpDelete, me)}, cmd(events.DraftOpDelete), events.TypeDraftDelete, events.DraftOpDelete, ""},
		{"DeleteOfACreateDraftDiscardsIt", catalog.DraftFacts{Draft: createDraft}, catalog.DraftCommand{Session: me, Resource: events.ResourceRule, Op: events.DraftOpDelete, ID: tmp}, events.TypeDraftDiscard, "", ""},
		{"DeleteOverUpdateIsIncompatible", catalog.DraftFacts{Object: published, Draft: draftOf(events.DraftOpUpdate, me)}, cmd(events.DraftOpDelete), "", "", events.CodeIncompatibleDraft},
		{"DeleteOfAnotherSessionsCreateDraft", catalog.DraftFacts{Draft: &catalog.Draft{ID: tmp, Resource: events.ResourceRule, Op: events.DraftOpCreate, Path: "go/NEW.md", SessionID: other}}, catalog.DraftCommand{Session: me, Resource: events.ResourceRule, Op: events.DraftOpDelete, ID: tmp}, "", "", events.CodeIncompatibleDraft},
		{"DiscardOfAnyDraft", catalog.DraftFacts{Object: published, Draft: draftOf(events.DraftOpRename, other)}, cmd(events.DraftOpDiscard), events.TypeDraftDiscard, "", ""},
		{"DiscardWithoutADraft", catalog.DraftFacts{Object: published}, cmd(events.DraftOpDiscard), "", "", events.CodeNotFound},
		{"DiscardOfASubmittedDraft", catalog.DraftFacts{Object: published, Draft: submitted}, cmd(events.DraftOpDiscard), "", "", events.CodeIncompatibleDraft},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := catalog.DecideDraft(tt.facts, tt.cmd)
			if tt.wantCode != "" {
				var de *catalog.DraftError
				if !errors.As(err, &de) || de.Code != tt.wantCode {
					t.Fatalf("got %v, want a %s refusal", err, tt.wantCode)
				}
				return
			}
			if err != nil {
				t.Fatalf("got %v, want %s", err, tt.wantType)
			}
			if d.Type != tt.wantType || d.Data.Op != tt.wantOp {
				t.Fatalf("got %s with op %q, want %s with op %q", d.Type, d.Data.Op, tt.wantType, tt.wantOp)
			}
			// The fold of the decided event gives the draft the decision
			// described: the one fold, applied to the one decision.
			ev := events.Event{Type: d.Type, Outcome: events.OutcomeOK, SessionID: tt.cmd.Session, Seq: 9}
			got := catalog.EvolveDraft(tt.facts.Draft, &ev, &d.Data)
			switch {
			case tt.wantOp == "" && got != nil:
				t.Fatalf("fold left draft %+v, want none", got)
			case tt.wantOp != "" && (got == nil || got.Op != tt.wantOp || got.ID != d.ID || got.Seq != 9):
				t.Fatalf("fold gave %+v, want a %s draft of %s at seq 9", got, tt.wantOp, d.ID)
			}
		})
	}
}

func TestDecideDraft_ExistingID(t *testing.T) {
	_, err := catalog.DecideDraft(catalog.DraftFacts{Holder: "tmp-rule-abc"}, cmd(events.DraftOpCreate))
	var de *catalog.DraftError
	if !errors.As(err, &de) || de.ExistingID != "tmp-rule-abc" {
		t.Fatalf("got %v, want draft_exists naming tmp-rule-abc", err)
	}
}

func TestDecideDraft_UpdateKeepsDescriptionAndBase(t *testing.T) {
	cur := draftOf(events.DraftOpUpdate, me)
	cur.Description = "why"
	d, err := catalog.DecideDraft(catalog.DraftFacts{Object: published, Draft: cur}, cmd(events.DraftOpUpdate))
	if err != nil {
		t.Fatal(err)
	}
	if d.Data.Description != "why" || d.Data.BaseHash != published.Hash || d.Data.Body != "new body" {
		t.Fatalf("got %+v, want the old description, the published hash as base and the new body", d.Data)
	}
}

func TestTmpID(t *testing.T) {
	// sha256("context:ops/deploy.md") starts with f02ae9a63f48.
	if got, want := catalog.TmpID(events.ResourceContext, "ops/deploy.md"), "tmp-context-f02ae9a63f48"; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
}

// TestEvolveDraft_Legacy folds events written before they stated their
// outcome (no op in the payload): the fold derives it as those versions
// did.
func TestEvolveDraft_Legacy(t *testing.T) {
	ev := func(typ events.Type, seq uint64) *events.Event {
		return &events.Event{Type: typ, Outcome: events.OutcomeOK, SessionID: me, Seq: seq}
	}
	create := catalog.EvolveDraft(nil, ev(events.TypeDraftCreate, 1), &events.DraftData{ID: "tmp-x", Resource: "rule", Path: "a.md", Body: "a", Description: "d"})
	if create == nil || create.Op != events.DraftOpCreate {
		t.Fatalf("create: got %+v", create)
	}
	upd := catalog.EvolveDraft(create, ev(events.TypeDraftUpdate, 2), &events.DraftData{ID: "tmp-x", Resource: "rule", Body: "b"})
	if upd.Op != events.DraftOpCreate || upd.Body != "b" || upd.Path != "a.md" || upd.Description != "d" || upd.Seq != 2 {
		t.Fatalf("update of a create draft: got %+v", upd)
	}
	if got := catalog.EvolveDraft(upd, ev(events.TypeDraftDelete, 3), &events.DraftData{ID: "tmp-x", Resource: "rule"}); got != nil {
		t.Fatalf("delete of a create draft: got %+v, want none", got)
	}
	del := catalog.EvolveDraft(nil, ev(events.TypeDraftDelete, 4), &events.DraftData{ID: ruleID, Resource: "rule", Path: "go/A.md"})
	if del == nil || del.Op != events.DraftOpDelete {
		t.Fatalf("delete: got %+v", del)
	}
	failed := &events.Event{Type: events.TypeDraftDiscard, Outcome: events.OutcomeError, Seq: 5}
	if got := catalog.EvolveDraft(del, failed, &events.FailureData{}); got != del {
		t.Fatalf("a failed call changed the draft: %+v", got)
	}
	if del.Status != catalog.StatusDraft {
		t.Fatalf("delete: got status %q, want draft", del.Status)
	}
}

package repodraft

import (
	"context"
	"errors"
	"fmt"

	"github.com/clumsies/clumsies/catalog"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections"
)

// Ledger is what reviewing drafts needs of a workspace: the state of a
// draft, read by the owner, and appends on a condition. The owner's
// node.Handle is one, whether this process owns the workspace or not.
type Ledger interface {
	DraftState(ctx context.Context, id string) (projections.DraftState, error)
	RecordExpecting(ctx context.Context, ev events.Event, exp events.Expectation) error
}

// Reviewer applies and declines the repository drafts of one workspace.
type Reviewer struct {
	Ledger      Ledger
	WorkspaceID string
	Root        string // the content root: the folder holding rules/, context/, META_PROMPT.md
	Name        string // who reviews, recorded with each outcome
}

// Outcome is what an apply or a decline recorded.
type Outcome struct {
	Type  events.Type       `json:"type"`  // attest.draft.apply, attest.draft.conflict or attest.draft.decline
	Draft catalog.Draft     `json:"draft"` // the draft as the outcome left it
	Data  events.ReviewData `json:"data"`  // what the event recorded
	Plan  Plan              `json:"plan"`
	// Recovered is true when the files already held the draft (an earlier
	// apply wrote them and could not record it) and only the outcome was
	// recorded.
	Recovered bool `json:"recovered,omitempty"`
}

// maxDecisions bounds how often a decision is taken again after another
// event of the drafts aggregate came first.
const maxDecisions = 16

// ErrChanged means the draft changed while it was applied: the files were
// put back and nothing was recorded.
var ErrChanged = errors.New("the draft changed while it was applied")

// ErrUnrecorded means the files hold the draft but its outcome could not
// be recorded: applying the draft again records it.
var ErrUnrecorded = errors.New("the files were written, the outcome was not recorded")

// Apply applies the open draft id to the content tree: the files are
// written and attest.draft.apply recorded, or, when a file is not as the
// draft's base, attest.draft.conflict is recorded with a diff and nothing
// written. seq, when not 0, is the draft's Seq as the person saw it: a
// draft changed since is refused. Refusals of the review's rules are
// *catalog.DraftError.
func (r *Reviewer) Apply(ctx context.Context, id string, seq uint64) (Outcome, error) {
	root, err := openTree(r.Root)
	if err != nil {
		return Outcome{}, err
	}
	defer root.Close()
	var wrote *written // the files written for a draft, not yet recorded
	for attempt := 1; ; attempt++ {
		st, err := r.Ledger.DraftState(ctx, id)
		if err != nil {
			return Outcome{}, r.unrecorded(wrote, fmt.Errorf("read draft %s: %w", id, err))
		}
		if wrote != nil && (st.Open == nil || st.Open.Seq != wrote.seq) {
			if err := undo(root, wrote.plan, wrote.before); err != nil {
				return Outcome{}, fmt.Errorf("%w, and putting the files back failed: %w", ErrChanged, err)
			}
			return Outcome{}, fmt.Errorf("%w: an agent's change or another review of %s came first; the files are as they were; look at it again with clumsies drafts show %s", ErrChanged, id, id)
		}
		if err := open(st, id); err != nil {
			return Outcome{}, err
		}
		d := *st.Open
		p, err := PlanOf(d)
		if err != nil {
			return Outcome{}, err
		}
		t, err := inspect(root, p)
		if err != nil {
			return Outcome{}, err
		}
		cmd := catalog.ReviewCommand{Type: events.TypeDraftApply, Seq: seq, Data: events.ReviewData{
			DraftID: id, Reviewer: r.Name, BaseHash: d.BaseHash, CurrentHash: appliedHash(p),
		}}
		if t.state == conflict {
			cmd.Type = events.TypeDraftConflict
			cmd.Data.Reason, cmd.Data.CurrentHash, cmd.Data.Diff = t.reason, t.currentHash(p), conflictDiff(p, t, st.Object)
		}
		dec, err := catalog.DecideReview(st.Facts, cmd)
		if err != nil {
			return Outcome{}, err
		}
		if t.state == ready && wrote == nil {
			if err := write(root, p); err != nil {
				// A write that failed half way (a rename cannot) leaves
				// the tree as it was or partly written: put it back.
				if uerr := undo(root, p, t); uerr != nil {
					err = fmt.Errorf("%w; putting the files back: %w", err, uerr)
				}
				return Outcome{}, fmt.Errorf("apply draft %s: %w", id, err)
			}
			wrote = &written{plan: p, before: t, seq: d.Seq}
		}
		ev, err := events.New(r.WorkspaceID, dec.Type, dec.Data)
		if err != nil {
			return Outcome{}, r.unrecorded(wrote, err)
		}
		err = r.Ledger.RecordExpecting(ctx, ev, events.Expectation{Aggregate: events.AggregateDrafts, LastSeq: st.Facts.Seq})
		if errors.Is(err, events.ErrConflict) && attempt < maxDecisions {
			continue // another draft event came first: decide again
		}
		if err != nil {
			if wrote != nil {
				return Outcome{}, fmt.Errorf("%w: %w; run clumsies drafts apply %s again to record it", ErrUnrecorded, err, id)
			}
			return Outcome{}, fmt.Errorf("record the outcome of draft %s: %w", id, err)
		}
		return Outcome{Type: dec.Type, Draft: dec.Draft, Data: dec.Data, Plan: p, Recovered: t.state == done && wrote == nil}, nil
	}
}

// written is what Apply wrote and must put back if the draft changes
// before its outcome is recorded.
type written struct {
	plan   Plan
	before tree
	seq    uint64
}

// unrecorded returns err; with files written and nothing recorded, it says
// what to do.
func (r *Reviewer) unrecorded(w *written, err error) error {
	if w == nil {
		return err
	}
	return fmt.Errorf("%w: %w; run clumsies drafts apply again to record it", ErrUnrecorded, err)
}

// appliedHash is the hash the object has once plan p is applied: the
// body's for create and update, the base's for a rename, none for a
// delete.
func appliedHash(p Plan) string {
	switch p.Op {
	case events.DraftOpCreate, events.DraftOpUpdate:
		return hashOf(p.Body)
	case events.DraftOpRename:
		return p.BaseHash
	}
	return ""
}

// Decline declines the open draft id with reason, which must not be
// empty.
func (r *Reviewer) Decline(ctx context.Context, id, reason string) (Outcome, error) {
	for attempt := 1; ; attempt++ {
		st, err := r.Ledger.DraftState(ctx, id)
		if err != nil {
			return Outcome{}, fmt.Errorf("read draft %s: %w", id, err)
		}
		if err := open(st, id); err != nil {
			return Outcome{}, err
		}
		dec, err := catalog.DecideReview(st.Facts, catalog.ReviewCommand{Type: events.TypeDraftDecline, Data: events.ReviewData{
			DraftID: id, Reviewer: r.Name, Reason: reason, BaseHash: st.Open.BaseHash,
		}})
		if err != nil {
			return Outcome{}, err
		}
		ev, err := events.New(r.WorkspaceID, dec.Type, dec.Data)
		if err != nil {
			return Outcome{}, err
		}
		err = r.Ledger.RecordExpecting(ctx, ev, events.Expectation{Aggregate: events.AggregateDrafts, LastSeq: st.Facts.Seq})
		if errors.Is(err, events.ErrConflict) && attempt < maxDecisions {
			continue
		}
		if err != nil {
			return Outcome{}, fmt.Errorf("record the decline of draft %s: %w", id, err)
		}
		return Outcome{Type: dec.Type, Draft: dec.Draft, Data: dec.Data}, nil
	}
}

// open refuses, in words a person acts on, a state without an open draft
// of id or with a draft in review at the hub.
func open(st projections.DraftState, id string) error {
	if st.Open == nil {
		if n := len(st.History); n > 0 {
			last := st.History[n-1]
			return &catalog.DraftError{Code: events.CodeNotFound, Message: fmt.Sprintf(
				"%s has no open draft: its last draft was %s (event %d); clumsies drafts show %s shows it, clumsies drafts list the open ones", id, last.Status, last.Seq, id)}
		}
		return &catalog.DraftError{Code: events.CodeNotFound, Message: fmt.Sprintf(
			"there is no draft %q; clumsies drafts list shows the open drafts and their ids", id)}
	}
	if st.Open.Status == catalog.StatusInReview {
		return &catalog.DraftError{Code: events.CodeIncompatibleDraft, Message: fmt.Sprintf(
			"draft %s is in review at the hub: it is accepted or declined there (clumsies hub review), not in the workspace", id)}
	}
	if st.Team {
		return &catalog.DraftError{Code: events.CodeIncompatibleDraft, Message: fmt.Sprintf(
			"draft %s changes the team's content: it is submitted to the hub and reviewed there (clumsies hub review), not applied to the repository", id)}
	}
	return nil
}

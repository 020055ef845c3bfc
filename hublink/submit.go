package hublink

import (
	"context"
	"errors"
	"time"

	"github.com/clumsies/clumsies/catalog"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/node"
)

// Drafts of team objects are submitted to the hub by themselves: when an
// agent stages a change of an object of the team's catalog (update,
// rename, delete), or a new file in a team folder, the owner records
// attest.draft.submit right after it, with the object's revision as the
// draft's base (0 for a new file). The hub receives both through its
// sourcing of the ledger and queues the draft for review; the draft is
// in_review from then on and the agent can no longer change it.

// AfterRecord records the submission of the open draft of id when it is
// a team draft, deciding again when another draft event came first. It
// returns false when it is no team draft or has no draft to submit.
func (l *Link) AfterRecord(ctx context.Context, id string) (bool, error) {
	if l.team == nil {
		return false, nil
	}
	return l.submit(ctx, id, false)
}

// submit records the submission of the open draft of id when it is a
// team draft; onlyChanges leaves a new file alone.
func (l *Link) submit(ctx context.Context, id string, onlyChanges bool) (bool, error) {
	obj, isObject := l.team.Get(id)
	return l.host.Decide(ctx, id, func(f catalog.DraftFacts) (events.Event, bool, error) {
		if f.Draft == nil || f.Draft.Status != catalog.StatusDraft {
			return events.Event{}, false, nil
		}
		isNew := f.Draft.Op == events.DraftOpCreate
		if isNew && onlyChanges || !isObject && !(isNew && l.inTeamFolder(f.Draft)) {
			return events.Event{}, false, nil
		}
		dec, err := catalog.DecideReview(f, catalog.ReviewCommand{Type: events.TypeDraftSubmit, Seq: f.Draft.Seq,
			Data: events.ReviewData{DraftID: id, BaseHash: f.Draft.BaseHash, BaseRevision: obj.Revision}})
		if err != nil {
			return events.Event{}, false, err
		}
		ev, err := events.New(l.host.WorkspaceID, dec.Type, dec.Data)
		if err != nil {
			return events.Event{}, false, err
		}
		ev.SessionID = f.Draft.SessionID
		return ev, true, nil
	})
}

// submitPending submits the drafts of team objects that are still drafts
// (their owner stopped between the draft and its submission).
func (l *Link) submitPending(ctx context.Context) error {
	for _, obj := range l.team.Objects() {
		if _, err := l.submit(ctx, obj.ID, true); err != nil {
			return err
		}
	}
	return nil
}

// retrySubmitPending submits the team drafts left unsubmitted, once the
// read models are open.
func (l *Link) retrySubmitPending(ctx context.Context) {
	for ctx.Err() == nil {
		err := l.submitPending(ctx)
		if err == nil {
			return
		}
		if !errors.Is(err, node.ErrProjector) {
			l.host.Logger.Warn("submit the team drafts left unsubmitted; retrying", "err", err)
		}
		select {
		case <-ctx.Done():
		case <-time.After(time.Second):
		}
	}
}

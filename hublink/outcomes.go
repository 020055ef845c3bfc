package hublink

import (
	"context"
	"encoding/json"

	"github.com/clumsies/clumsies/catalog"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/hub/hubwire"
)

// The outcomes of the reviews at the hub flow back over the leaf link: the
// owner mirrors the hub ledger's events about its workspace and records
// each outcome of a draft this node submitted in its own ledger
// (attest.draft.apply, decline or conflict), under the hub event's id, so
// that recording it again stores it once. A draft that is no longer the
// one the hub reviewed (the outcome's submit sequence) is left alone.

// followOutcomes runs the mirror of the hub's outcomes until ctx ends.
func (l *Link) followOutcomes(ctx context.Context) {
	FollowOutcomes(ctx, l.js, l.id.NodeID, l.id.Team, l.host.WorkspaceID, l.host.Logger, l.recordOutcome)
}

// recordOutcome records hub event ev in the ledger when it is the outcome
// of a review of this node's draft that is still in review.
func (l *Link) recordOutcome(ctx context.Context, ev hubwire.LedgerEvent) error {
	typ, ok := events.HubOutcome(ev.Type)
	if !ok {
		return nil
	}
	var o events.ReviewOutcomeData
	if err := json.Unmarshal(ev.Data, &o); err != nil || o.Node != l.id.NodeID {
		return nil
	}
	_, err := l.host.Decide(ctx, o.DraftID, func(f catalog.DraftFacts) (events.Event, bool, error) {
		if f.Draft == nil || f.Draft.Status != catalog.StatusInReview || f.Draft.Seq != o.SubmitSeq {
			return events.Event{}, false, nil // recorded already, or not the draft the hub reviewed
		}
		dec, err := catalog.DecideReview(f, catalog.ReviewCommand{Type: typ, Seq: o.SubmitSeq, Data: events.ReviewData{
			DraftID: o.DraftID, Reviewer: o.Reviewer, Reason: o.Reason, BaseRevision: o.BaseRevision,
			CurrentRevision: o.CurrentRevision, Revision: o.Revision}})
		if err != nil {
			return events.Event{}, false, nil // the draft's state refuses it: nothing to record
		}
		rec, err := events.New(l.host.WorkspaceID, dec.Type, dec.Data)
		if err != nil {
			return events.Event{}, false, err
		}
		if events.ValidID(ev.ID) {
			rec.ID = ev.ID // recorded again, it is stored once
		}
		rec.SessionID = f.Draft.SessionID
		return rec, true, nil
	})
	return err
}

package node

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/clumsies/clumsies/catalog"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/hub/hubwire"
	"github.com/clumsies/clumsies/projections"
	"github.com/clumsies/clumsies/teamcat"
)

// The outcomes of the reviews at the hub flow back over the leaf link: the
// owner mirrors the hub ledger's events about its workspace and records
// each outcome of a draft this node submitted in its own ledger
// (attest.draft.apply, decline or conflict), under the hub event's id, so
// that recording it again stores it once. A draft that is no longer the
// one the hub reviewed (the outcome's submit sequence) is left alone.

// followOutcomes runs the mirror of the hub's outcomes until ctx ends.
func (n *Node) followOutcomes(ctx context.Context, opts Options) {
	js, err := jetstream.New(n.Conn)
	if err != nil {
		n.logger.Error("follow the hub's review outcomes", "err", err)
		return
	}
	n.retrySubmitPending(ctx)
	teamcat.FollowOutcomes(ctx, js, opts.Domain, opts.Team, n.WS.ID(), n.logger, func(ctx context.Context, ev hubwire.LedgerEvent) error {
		return n.recordOutcome(ctx, opts.Domain, ev)
	})
}

// recordOutcome records hub event ev in the ledger when it is the outcome
// of a review of this node's draft that is still in review.
func (n *Node) recordOutcome(ctx context.Context, nodeID string, ev hubwire.LedgerEvent) error {
	typ, ok := events.HubOutcome(ev.Type)
	if !ok {
		return nil
	}
	var o events.ReviewOutcomeData
	if err := json.Unmarshal(ev.Data, &o); err != nil || o.Node != nodeID {
		return nil
	}
	for attempt := 0; attempt < 5; attempt++ {
		store, err := n.storeReady()
		if err != nil {
			return err
		}
		f, err := store.DraftFacts(ctx, catalog.DraftQuery{ID: o.DraftID})
		if err != nil {
			return err
		}
		if f.Draft == nil || f.Draft.Status != catalog.StatusInReview || f.Draft.Seq != o.SubmitSeq {
			return nil // recorded already, or not the draft the hub reviewed
		}
		dec, err := catalog.DecideReview(f, catalog.ReviewCommand{Type: typ, Seq: o.SubmitSeq, Data: events.ReviewData{
			DraftID: o.DraftID, Reviewer: o.Reviewer, Reason: o.Reason, BaseRevision: o.BaseRevision,
			CurrentRevision: o.CurrentRevision, Revision: o.Revision}})
		if err != nil {
			return nil // the draft's state refuses it: nothing to record
		}
		rec, err := events.New(n.WS.ID(), dec.Type, dec.Data)
		if err != nil {
			return err
		}
		if events.ValidID(ev.ID) {
			rec.ID = ev.ID // recorded again, it is stored once
		}
		rec.SessionID = f.Draft.SessionID
		seq, err := n.Log.AppendExpecting(ctx, rec, events.Expectation{Aggregate: events.AggregateDrafts, LastSeq: f.Seq})
		if errors.Is(err, events.ErrConflict) {
			last, lerr := n.Log.LastSeq(ctx)
			if lerr != nil {
				return lerr
			}
			if werr := n.WaitApplied(ctx, last); werr != nil {
				return werr
			}
			continue
		}
		if err != nil {
			return fmt.Errorf("record %s of %s: %w", dec.Type, o.DraftID, err)
		}
		return n.WaitApplied(ctx, seq)
	}
	return errors.New("record an outcome: the drafts kept changing")
}

// storeReady returns the read models once the projector runs.
func (n *Node) storeReady() (*projections.Store, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.Store == nil {
		return nil, fmt.Errorf("%w: the read models are not open yet", ErrProjector)
	}
	return n.Store, nil
}

// retrySubmitPending submits the team drafts left unsubmitted, once the
// read models are open.
func (n *Node) retrySubmitPending(ctx context.Context) {
	for ctx.Err() == nil {
		err := n.submitPending(ctx)
		if err == nil {
			return
		}
		if !errors.Is(err, ErrProjector) {
			n.logger.Warn("submit the team drafts left unsubmitted; retrying", "err", err)
		}
		select {
		case <-ctx.Done():
		case <-time.After(time.Second):
		}
	}
}

package hub

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/clumsies/clumsies/catalog"
	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/hub/hubwire"
)

// Accept accepts review id: the draft's change is written into the team's
// catalog if the object is still at the draft's base revision; when it is
// not, the draft is conflicted instead. A rule or workflow that is not
// well-formed (content.CheckRule), and a body that ends with memload's
// refer-reminder footer (content.HasReferFooter), are refused with the
// reason and stay in review. The change and the outcome are events of the hub's
// ledger, each appended on the condition that no other event of the team
// came after the state it was decided on (see review), which the node
// that submitted the draft mirrors and records.
func (h *Hub) Accept(ctx context.Context, id, reviewer string) (hubwire.Review, error) {
	h.reviewMu.Lock()
	defer h.reviewMu.Unlock()
	r, err := h.inReview(id)
	if err != nil {
		return r, err
	}
	if err := acceptable(r); err != nil {
		return r, err
	}
	return h.review(ctx, r, func(objs []hubwire.CatalogObject) (verdict, error) { return acceptVerdict(r, reviewer, objs) })
}

// acceptable returns an error wrapping ErrInvalid, saying why, when the
// body of review r may not enter the team's catalog whatever its state: a
// body that ends with memload's refer-reminder footer, a rule or workflow
// that is not well-formed (content.CheckRule).
func acceptable(r hubwire.Review) error {
	if content.HasReferFooter(r.Body) {
		return fmt.Errorf("%w: the draft cannot be accepted: %s; decline it with a reason", ErrInvalid, referFooterWarning)
	}
	if r.Op != events.DraftOpDelete && r.Resource == events.ResourceRule {
		if err := content.CheckRule(r.Body); err != nil {
			return fmt.Errorf("%w: the draft cannot be accepted: %s; decline it with a reason", ErrInvalid, strings.TrimPrefix(err.Error(), content.ErrNotARule.Error()+": "))
		}
	}
	return nil
}

// Decline declines review id with a reason.
func (h *Hub) Decline(ctx context.Context, id, reviewer, reason string) (hubwire.Review, error) {
	h.reviewMu.Lock()
	defer h.reviewMu.Unlock()
	r, err := h.inReview(id)
	if err != nil {
		return r, err
	}
	return h.review(ctx, r, func([]hubwire.CatalogObject) (verdict, error) {
		return verdict{typ: events.TypeReviewDecline, out: outcomeOf(r, reviewer, reason, 0)}, nil
	})
}

// verdict is a review decision: its outcome, and the change of the team's
// catalog an accept records before it (nil: none).
type verdict struct {
	typ    events.Type
	out    events.ReviewOutcomeData
	change *catalogChange
}

// catalogChange is one catalog event of the hub's ledger.
type catalogChange struct {
	typ  events.Type
	data events.HubCatalogData
}

func outcomeOf(r hubwire.Review, reviewer, reason string, current uint64) events.ReviewOutcomeData {
	return events.ReviewOutcomeData{ReviewID: r.ID, DraftID: r.DraftID, Node: r.Node, SubmitSeq: r.SubmitSeq, Reviewer: reviewer,
		Reason: reason, BaseRevision: r.BaseRevision, CurrentRevision: current}
}

// review decides review r on the team's view (teamView) and records the
// verdict: its catalog change, then its outcome, each on the condition
// that the team's newest event is still the one the decision read. When
// another event of the team came first (another hub of the cluster
// deciding, a push) it reads and decides again, so that of two hubs
// deciding one review at once, one outcome is stored and the other is
// refused as decided. The outcome goes through catalog.DecideReview, the
// rule of every review outcome (a decline or a conflict needs a reason).
func (h *Hub) review(ctx context.Context, r hubwire.Review, decide func([]hubwire.CatalogObject) (verdict, error)) (hubwire.Review, error) {
	var mine string // the id of the outcome this call stored, once it did
	for attempt := 1; ; attempt++ {
		v, err := h.teamView(ctx, r.Team, r.ID)
		if err != nil {
			return r, err
		}
		if v.decided {
			if v.outcome.id == mine {
				return h.answer(ctx, r, v.outcome.typ, v.outcome.data)
			}
			status, _ := outcomeStatus(v.outcome.typ)
			return r, fmt.Errorf("%w: %s is %s", ErrDecided, r.ID, status)
		}
		vd, err := decide(v.objs)
		if err != nil {
			return r, err
		}
		seq := v.seq
		if c := vd.change; c != nil {
			seq, err = h.record(ctx, r.Team, "", c.typ, c.data, seq)
			if errors.Is(err, events.ErrConflict) && attempt < maxDecisions {
				continue
			}
			if err != nil {
				return r, err
			}
			if err := h.applied(ctx, seq); err != nil {
				return r, err
			}
			if vd.out.Revision, err = h.entryRevision(ctx, r.Team, c.data.ID); err != nil {
				return r, err
			}
		}
		o, err := decideOutcome(r, seq, vd)
		if err != nil {
			return r, err
		}
		id, err := h.recordOutcome(ctx, r, vd.typ, o, seq)
		if errors.Is(err, events.ErrConflict) && attempt < maxDecisions {
			mine = id // stored, its answer lost: the view shows it
			continue
		}
		if err != nil {
			return r, err
		}
		return h.answer(ctx, r, vd.typ, o)
	}
}

// decideOutcome checks the outcome of vd with catalog.DecideReview, on
// the draft as the review holds it, and returns what to record.
func decideOutcome(r hubwire.Review, seq uint64, vd verdict) (events.ReviewOutcomeData, error) {
	rec, _ := events.HubOutcome(vd.typ)
	o := vd.out
	draft := &catalog.Draft{ID: r.DraftID, Resource: r.Resource, Op: r.Op, Path: r.Path, NewPath: r.NewPath,
		SessionID: r.SessionID, Seq: r.SubmitSeq, Status: catalog.StatusInReview}
	dec, err := catalog.DecideReview(catalog.DraftFacts{Seq: seq, Draft: draft}, catalog.ReviewCommand{Type: rec, Seq: r.SubmitSeq,
		Data: events.ReviewData{DraftID: o.DraftID, Reviewer: o.Reviewer, Reason: o.Reason, BaseRevision: o.BaseRevision,
			CurrentRevision: o.CurrentRevision, Revision: o.Revision}})
	var de *catalog.DraftError
	if errors.As(err, &de) {
		return o, fmt.Errorf("%w: %s", ErrInvalid, de.Message)
	}
	if err != nil {
		return o, err
	}
	o.Reviewer, o.Reason, o.Revision = dec.Data.Reviewer, dec.Data.Reason, dec.Data.Revision
	return o, nil
}

// recordOutcome records outcome o of review r after the team's event at
// seq, and returns the event's id.
func (h *Hub) recordOutcome(ctx context.Context, r hubwire.Review, typ events.Type, o events.ReviewOutcomeData, seq uint64) (string, error) {
	id := events.NewID()
	_, err := h.recordID(ctx, r.Team, r.WorkspaceID, typ, id, o, seq)
	return id, err
}

// inReview returns review id if it is still in review.
func (h *Hub) inReview(id string) (hubwire.Review, error) {
	r, err := h.ReviewOf(id)
	if err != nil {
		return r, err
	}
	if r.Status != catalog.StatusInReview {
		return r, fmt.Errorf("%w: %s is %s", ErrDecided, id, r.Status)
	}
	return r, nil
}

// answer waits until the review queue holds outcome o of review r, of
// type typ, and returns the review with it.
func (h *Hub) answer(ctx context.Context, r hubwire.Review, typ events.Type, o events.ReviewOutcomeData) (hubwire.Review, error) {
	want, _ := outcomeStatus(typ)
	wctx, cancel := context.WithTimeout(ctx, readyTimeout)
	defer cancel()
	err := h.reviews.waitFor(wctx, func() bool {
		got, _ := h.reviews.get(r.ID)
		return got.Status == want
	})
	if err != nil {
		return r, fmt.Errorf("wait for the review queue: %w", err)
	}
	got, err := h.ReviewOf(r.ID)
	if err != nil {
		return got, err
	}
	// The status can reach the queue first through the node, which
	// records the outcome it mirrors and whose event the aggregate
	// sources, before the queue reads the hub's own event: answer with
	// what this call decided.
	setOutcome(&got, typ, o)
	return got, nil
}

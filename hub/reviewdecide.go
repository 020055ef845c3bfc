package hub

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/clumsies/clumsies/catalog"
	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/hub/hubwire"
)

// Accept accepts review id: the draft's change is written into the team's
// catalog on the condition that the object is still at the draft's base
// revision (a compare-and-set on its entry). When it is not, the draft is
// conflicted instead. A rule or workflow that is not well-formed
// (content.CheckRule) is refused with the parser's reason and stays in
// review. The outcome is an event of the hub's ledger, which the node
// that submitted the draft mirrors and records.
func (h *Hub) Accept(ctx context.Context, id, reviewer string) (hubwire.Review, error) {
	h.reviewMu.Lock()
	defer h.reviewMu.Unlock()
	r, err := h.inReview(id)
	if err != nil {
		return r, err
	}
	if r.Op != events.DraftOpDelete && r.Resource == events.ResourceRule {
		if err := content.CheckRule(r.Body); err != nil {
			return r, fmt.Errorf("%w: the draft cannot be accepted: %s; decline it with a reason", ErrInvalid, strings.TrimPrefix(err.Error(), content.ErrNotARule.Error()+": "))
		}
	}
	// The catalog, read once every change the ledger holds is in it, is
	// changed by nobody else within this hub until the change is decided.
	h.catMu.Lock()
	defer h.catMu.Unlock()
	if err := h.catchUp(ctx); err != nil {
		return r, err
	}
	kv, err := h.catalogKV(ctx, r.Team, false)
	if err != nil {
		return r, err
	}
	cur, err := kv.Get(ctx, r.DraftID)
	var current uint64
	var obj hubwire.CatalogObject
	switch {
	case errors.Is(err, jetstream.ErrKeyNotFound):
	case err != nil:
		return r, fmt.Errorf("read %s of team %s: %w", r.DraftID, r.Team, err)
	default:
		current = cur.Revision()
		if obj, err = hubwire.DecodeCatalogEntry(cur.Value(), current); err != nil {
			return r, err
		}
	}
	out := events.ReviewOutcomeData{ReviewID: r.ID, DraftID: r.DraftID, Node: r.Node, SubmitSeq: r.SubmitSeq, Reviewer: reviewer,
		BaseRevision: r.BaseRevision, CurrentRevision: current}
	if obj.AcceptedReview == r.ID {
		// Written by an accept that was not recorded (the hub stopped).
		out.Revision = current
		return h.decide(ctx, r, events.TypeReviewAccept, out)
	}
	if current != r.BaseRevision {
		out.Reason = conflictReason(r, current)
		return h.decide(ctx, r, events.TypeReviewConflict, out)
	}
	if holder, err := h.pathHolder(ctx, r); err != nil {
		return r, err
	} else if holder != "" {
		out.Reason = fmt.Sprintf("the team's catalog already has %s at %s; stage the change at another path", holder, targetPath(r))
		return h.decide(ctx, r, events.TypeReviewConflict, out)
	}
	rev, err := h.writeAccepted(ctx, r, obj)
	if err != nil {
		return r, err
	}
	out.Revision = rev
	return h.decide(ctx, r, events.TypeReviewAccept, out)
}

// Decline declines review id with a reason.
func (h *Hub) Decline(ctx context.Context, id, reviewer, reason string) (hubwire.Review, error) {
	if strings.TrimSpace(reason) == "" {
		return hubwire.Review{}, fmt.Errorf("%w: a declined draft needs a reason (--reason)", ErrInvalid)
	}
	h.reviewMu.Lock()
	defer h.reviewMu.Unlock()
	r, err := h.inReview(id)
	if err != nil {
		return r, err
	}
	return h.decide(ctx, r, events.TypeReviewDecline, events.ReviewOutcomeData{ReviewID: r.ID, DraftID: r.DraftID, Node: r.Node,
		SubmitSeq: r.SubmitSeq, Reviewer: reviewer, Reason: reason, BaseRevision: r.BaseRevision})
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

func conflictReason(r hubwire.Review, current uint64) string {
	if current == 0 {
		return fmt.Sprintf("team object %s changed while the draft was accepted (base revision %d)", r.DraftID, r.BaseRevision)
	}
	return fmt.Sprintf("team object %s changed since the draft was made: it is at revision %d, the draft is based on revision %d; stage the change again on the current object", r.DraftID, current, r.BaseRevision)
}

// writeAccepted records the draft's change of obj (at the draft's base
// revision) in the hub's ledger, and returns the revision of the entry
// derived from it.
func (h *Hub) writeAccepted(ctx context.Context, r hubwire.Review, obj hubwire.CatalogObject) (uint64, error) {
	typ := events.TypeHubCatalogPublish
	switch r.Op {
	case events.DraftOpDelete:
		typ = events.TypeHubCatalogRemove
	case events.DraftOpUpdate:
		obj.Body, obj.Hash = r.Body, content.Hash([]byte(r.Body))
		obj.Description = catalog.Describe(r.Body)
	case events.DraftOpRename:
		path := r.NewPath
		obj.Path = path
		if obj.Kind == content.KindRule || obj.Kind == content.KindWorkflow {
			obj.Kind = content.KindOfRulePath(path)
		}
	case events.DraftOpCreate:
		kind := content.KindContext
		if r.Resource == events.ResourceRule {
			kind = content.KindOfRulePath(r.Path)
		}
		obj = hubwire.CatalogObject{ID: catalog.DerivedID(kind, r.Path), Kind: kind, Path: r.Path,
			Body: r.Body, Hash: content.Hash([]byte(r.Body)), Description: catalog.Describe(r.Body)}
	default:
		return 0, fmt.Errorf("%w: a %s draft is not reviewed at the hub", ErrInvalid, r.Op)
	}
	d := events.HubCatalogData{ID: obj.ID, Kind: string(obj.Kind), Path: obj.Path, Hash: obj.Hash, By: "review " + r.ID, Whole: true}
	if typ == events.TypeHubCatalogPublish {
		d.Description, d.Body, d.AcceptedReview = obj.Description, obj.Body, r.ID
	}
	seq, err := h.record(ctx, r.Team, "", typ, "", d)
	if err != nil {
		return 0, err
	}
	if err := h.applied(ctx, seq); err != nil {
		return 0, err
	}
	return h.entryRevision(ctx, r.Team, obj.ID)
}

// decide records an outcome of review r in the hub's ledger and waits
// until the queue holds it.
func (h *Hub) decide(ctx context.Context, r hubwire.Review, typ events.Type, o events.ReviewOutcomeData) (hubwire.Review, error) {
	if _, err := h.record(ctx, r.Team, r.WorkspaceID, typ, events.NewID(), o); err != nil {
		return r, err
	}
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

// targetPath is the path a create or rename draft writes.
func targetPath(r hubwire.Review) string {
	if r.Op == events.DraftOpRename {
		return r.NewPath
	}
	return r.Path
}

// pathHolder returns the id of the team object that holds the path a
// create or rename draft writes, in its namespace; "" when it is free.
func (h *Hub) pathHolder(ctx context.Context, r hubwire.Review) (string, error) {
	if r.Op != events.DraftOpCreate && r.Op != events.DraftOpRename {
		return "", nil
	}
	m, err := h.TeamManifest(ctx, r.Team)
	if err != nil {
		return "", err
	}
	ns := content.NSContext
	if r.Resource == events.ResourceRule {
		ns = content.NSRule
	}
	for _, o := range m.Objects {
		if o.Path == targetPath(r) && o.ID != r.DraftID && content.NamespaceOf(o.Kind) == ns {
			return o.ID, nil
		}
	}
	return "", nil
}

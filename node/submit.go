package node

import (
	"context"
	"errors"

	"github.com/clumsies/clumsies/catalog"
	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
)

// Drafts of team objects are submitted to the hub by themselves: when an
// agent stages a change of an object of the team's catalog (update,
// rename, delete), or a new file in a team folder (a folder that holds
// team objects), the owner records attest.draft.submit right after it,
// with the object's revision as the draft's base (0 for a new file). The hub receives both
// through its sourcing of the ledger and queues the draft for review;
// the draft is in_review from then on and the agent can no longer change
// it. A draft of a repository object stays a draft until a person applies
// or declines it (clumsies drafts).

// teamFacts completes the facts of a draft decision with the team's
// catalog: a team object is the published object of its id.
func (n *Node) teamFacts(f *catalog.DraftFacts, q catalog.DraftQuery) {
	if n.Team == nil || q.ID == "" || f.Object != nil {
		return
	}
	if o, ok := n.Team.Get(q.ID); ok {
		f.Object = &catalog.Target{ID: o.ID, Kind: o.Kind, Path: o.Path, Hash: o.Hash}
	}
}

// submitIfTeam submits the draft ev staged when it changes a team object.
// A draft whose submission fails stays a draft; the failure is logged.
func (h *Handle) submitIfTeam(ctx context.Context, ev events.Event) {
	if op := ev.Type.DraftOp(); op == "" || op == events.DraftOpDiscard {
		return
	}
	p, err := ev.Payload()
	if err != nil {
		return
	}
	d, ok := p.(*events.DraftData)
	if !ok {
		return
	}
	if _, err := mSubmitTeam.call(ctx, h, d.ID); err != nil {
		h.logger.Warn("a draft of a team object was not submitted to the hub", "id", d.ID, "err", err)
	}
}

// submitTeam is submitTeamDraft for the owner's service.
func (o *owner) submitTeam(ctx context.Context, id string) (bool, error) {
	o.models.RLock()
	defer o.models.RUnlock()
	return o.n.submitTeamDraft(ctx, id)
}

// submitPending submits the drafts of team objects that are still drafts
// (their owner stopped between the draft and its submission).
func (n *Node) submitPending(ctx context.Context) error {
	store, err := n.storeReady()
	if err != nil {
		return err
	}
	for _, obj := range n.Team.Objects() {
		d, _, _, err := store.DraftStatusOf(ctx, obj.ID)
		if err != nil {
			return err
		}
		if d == nil || d.Status != catalog.StatusDraft || d.Op == events.DraftOpCreate {
			continue
		}
		if _, err := n.submitTeamDraft(ctx, obj.ID); err != nil {
			return err
		}
	}
	return nil
}

// submitTeamDraft records the submission of the open draft of id when it
// is a team draft (of a team object, or a new file in a team folder),
// deciding again when another draft event came first. It returns false
// when it is no team draft or has no draft to submit.
func (n *Node) submitTeamDraft(ctx context.Context, id string) (bool, error) {
	if n.Team == nil {
		return false, nil
	}
	obj, isObject := n.Team.Get(id)
	for attempt := 0; attempt < 5; attempt++ {
		store, err := n.storeReady()
		if err != nil {
			return false, err
		}
		f, err := store.DraftFacts(ctx, catalog.DraftQuery{ID: id})
		if err != nil {
			return false, err
		}
		if f.Draft == nil || f.Draft.Status != catalog.StatusDraft {
			return false, nil
		}
		if !isObject && !(f.Draft.Op == events.DraftOpCreate && n.inTeamFolder(f.Draft)) {
			return false, nil
		}
		dec, err := catalog.DecideReview(f, catalog.ReviewCommand{Type: events.TypeDraftSubmit, Seq: f.Draft.Seq,
			Data: events.ReviewData{DraftID: id, BaseHash: f.Draft.BaseHash, BaseRevision: obj.Revision}})
		if err != nil {
			return false, err
		}
		ev, err := events.New(n.WS.ID(), dec.Type, dec.Data)
		if err != nil {
			return false, err
		}
		ev.SessionID = f.Draft.SessionID
		seq, err := n.Log.AppendExpecting(ctx, ev, events.Expectation{Aggregate: events.AggregateDrafts, LastSeq: f.Seq})
		if errors.Is(err, events.ErrConflict) {
			last, lerr := n.Log.LastSeq(ctx)
			if lerr != nil {
				return false, lerr
			}
			if werr := n.WaitApplied(ctx, last); werr != nil {
				return false, werr
			}
			continue
		}
		if err != nil {
			return false, err
		}
		return true, n.WaitApplied(ctx, seq)
	}
	return false, errors.New("submit the draft: the drafts kept changing")
}

// inTeamFolder reports whether create draft d makes a file in a team
// folder: a folder (group) that holds objects of the team's catalog in the
// draft's namespace. Such a file is a team object once accepted at the hub.
func (n *Node) inTeamFolder(d *catalog.Draft) bool {
	group := content.GroupOf(d.Path)
	if group == "" {
		return false
	}
	ns := catalog.NamespaceOfResource(d.Resource)
	for _, o := range n.Team.Objects() {
		if o.Group == group && content.NamespaceOf(o.Kind) == ns {
			return true
		}
	}
	return false
}

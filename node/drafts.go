package node

import (
	"context"

	"github.com/clumsies/clumsies/catalog"
	"github.com/clumsies/clumsies/projections"
)

// draftState reads the state of one draft id once the read models have
// applied every event the stream held when it was asked, so that a person
// reviewing a draft sees what the agent last did.
// A draft of the team's content is marked Team.
func (o *owner) draftState(ctx context.Context, id string) (projections.DraftState, error) {
	if _, err := o.catchUp(ctx, struct{}{}); err != nil {
		return projections.DraftState{}, err
	}
	st, err := read(o, func(s *projections.Store) (projections.DraftState, error) { return s.DraftState(ctx, id) })
	if err == nil {
		st.Team = o.n.overlay().TeamDraft(id, st.Open)
	}
	return st, err
}

// draftList lists the drafts (the closed ones too when closed is true)
// once the read models have caught up, as draftState.
func (o *owner) draftList(ctx context.Context, closed bool) ([]catalog.Draft, error) {
	if _, err := o.catchUp(ctx, struct{}{}); err != nil {
		return nil, err
	}
	return read(o, func(s *projections.Store) ([]catalog.Draft, error) { return s.DraftList(closed) })
}

// DraftState returns projections.Store.DraftState of id, read by the
// owner once its read models have caught up with the stream.
func (h *Handle) DraftState(ctx context.Context, id string) (projections.DraftState, error) {
	return mDraftState.call(ctx, h, id)
}

// DraftList returns projections.Store.DraftList, read by the owner once
// its read models have caught up with the stream.
func (h *Handle) DraftList(ctx context.Context, closed bool) ([]catalog.Draft, error) {
	return mDraftList.call(ctx, h, closed)
}

package projections

import (
	"cmp"
	"context"
	"slices"

	"github.com/clumsies/clumsies/catalog"
	"github.com/clumsies/clumsies/events"
)

// DraftState is everything the read models know of one draft id, all as
// of one state: what a person reviewing the draft reads, and what a review
// decision (catalog.DecideReview) is taken on.
type DraftState struct {
	// Facts are the decision's facts: the drafts aggregate's sequence (the
	// expectation of the decided append), the published object and the
	// open draft, without bodies.
	Facts catalog.DraftFacts `json:"facts"`
	// Open is the open draft of the id, body included; nil when none.
	Open *catalog.Draft `json:"open,omitempty"`
	// History holds the closed drafts of the id, bodies included, oldest
	// outcome first.
	History []catalog.Draft `json:"history,omitempty"`
	// Object is the published object with the id, body included; nil
	// when none.
	Object *Object `json:"object,omitempty"`
	// Team is true for a draft of the team's content (an object of the
	// team's catalog, or a new file in a team folder), which is reviewed
	// at the hub. The store knows nothing of teams and leaves it false;
	// the workspace's owner, which mirrors the team's catalog, sets it.
	Team bool `json:"team,omitempty"`
}

// DraftState returns the state of draft id. An id with neither a draft
// nor a history has a state with neither. It returns ErrClosed after
// Close, ctx.Err() if ctx has ended, and the storage error if a body
// cannot be read.
func (s *Store) DraftState(ctx context.Context, id string) (DraftState, error) {
	if err := ctx.Err(); err != nil {
		return DraftState{}, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed.Load() {
		return DraftState{}, ErrClosed
	}
	st := DraftState{Facts: catalog.DraftFacts{Seq: s.st.aggregates[events.AggregateDrafts]}}
	if o, ok := s.st.manifest.objects[id]; ok {
		st.Facts.Object = &catalog.Target{ID: o.ID(), Kind: o.Kind(), Path: o.Path(), Hash: o.Hash()}
		obj, err := s.objectRow(id)
		if err != nil {
			return DraftState{}, err
		}
		if obj.Body, err = s.body(id); err != nil {
			return DraftState{}, err
		}
		st.Object = &obj
	}
	if d, ok := s.st.drafts.byID[id]; ok {
		fact := d.Draft
		st.Facts.Draft = &fact
		open := d.Draft
		body, err := s.draftBody(d)
		if err != nil {
			return DraftState{}, err
		}
		open.Body = body
		st.Open = &open
	}
	for _, d := range s.st.drafts.closed {
		if d.ID != id {
			continue
		}
		c := d.Draft
		body, err := s.draftBody(d)
		if err != nil {
			return DraftState{}, err
		}
		c.Body = body
		st.History = append(st.History, c)
	}
	slices.SortFunc(st.History, func(a, b catalog.Draft) int { return cmp.Compare(a.Seq, b.Seq) })
	return st, nil
}

// DraftList returns the open drafts without their bodies, sorted by id,
// and, when closed is true, the closed drafts after them, oldest outcome
// first: what a listing shows. It returns ErrClosed after Close.
func (s *Store) DraftList(closed bool) ([]catalog.Draft, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed.Load() {
		return nil, ErrClosed
	}
	out := make([]catalog.Draft, 0, len(s.st.drafts.byID))
	for _, d := range s.st.drafts.byID {
		out = append(out, d.Draft)
	}
	slices.SortFunc(out, func(a, b catalog.Draft) int { return cmp.Compare(a.ID, b.ID) })
	if !closed {
		return out, nil
	}
	n := len(out)
	for _, d := range s.st.drafts.closed {
		c := d.Draft
		c.Diff = "" // a listing shows no diff
		out = append(out, c)
	}
	slices.SortFunc(out[n:], func(a, b catalog.Draft) int { return cmp.Compare(a.Seq, b.Seq) })
	return out, nil
}

// Latest returns the draft of the state to show: the open one, else the
// last closed one; false when the id has neither.
func (st DraftState) Latest() (catalog.Draft, bool) {
	switch {
	case st.Open != nil:
		return *st.Open, true
	case len(st.History) > 0:
		return st.History[len(st.History)-1], true
	}
	return catalog.Draft{}, false
}

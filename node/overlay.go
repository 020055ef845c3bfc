package node

import (
	"context"

	"github.com/clumsies/clumsies/catalog"
	"github.com/clumsies/clumsies/projections"
)

// Overlay lays the team's catalog over the workspace's reads; a read hands
// it the read models it reads.
type Overlay interface {
	// View returns team object id as an item, with the state of its
	// draft; ok is false when id is no team object.
	View(ctx context.Context, id string, s *projections.Store) (it projections.Item, ok bool, err error)
	// Shadow fills in ShadowedBy of a repository item at a team object's
	// path.
	Shadow(it *projections.Item)
	// List merges the team's objects that match f into a listing of the
	// repository's items, in the listing's order.
	List(ctx context.Context, items []projections.Item, f projections.Filter, s *projections.Store) ([]projections.Item, error)
	// Facts completes the facts of a draft decision: a team object is the
	// published object of its id.
	Facts(f *catalog.DraftFacts, q catalog.DraftQuery)
	// TeamDraft reports whether draft id, whose open draft is open (nil
	// if none), is of the team's content.
	TeamDraft(id string, open *catalog.Draft) bool
}

// noOverlay is the overlay of a workspace without a link: nothing.
type noOverlay struct{}

func (noOverlay) View(context.Context, string, *projections.Store) (projections.Item, bool, error) {
	return projections.Item{}, false, nil
}

func (noOverlay) Shadow(*projections.Item) {}

func (noOverlay) List(_ context.Context, items []projections.Item, _ projections.Filter, _ *projections.Store) ([]projections.Item, error) {
	return items, nil
}

func (noOverlay) Facts(*catalog.DraftFacts, catalog.DraftQuery) {}

func (noOverlay) TeamDraft(string, *catalog.Draft) bool { return false }

package node

import (
	"context"
	"fmt"

	"github.com/clumsies/clumsies/catalog"
	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
)

// Plan scans the content tree and returns the catalog events that would
// bring the manifest in line with it.
func (n *Node) Plan() ([]events.Event, error) {
	files, err := content.Scan(n.WS.ContentRoot())
	if err != nil {
		return nil, err
	}
	objs := n.Store.Objects()
	pub := make([]catalog.Published, len(objs))
	for i, o := range objs {
		pub[i] = catalog.Published{ID: o.ID, Kind: o.Kind, Path: o.Path, Hash: o.Hash}
	}
	return catalog.Plan(n.WS.ID(), files, pub)
}

// Publish appends the catalog events that bring the manifest in line with
// the content tree and waits until they are applied. An unchanged tree
// appends nothing. It returns the events appended.
//
// The tree is scanned and checked whole before anything is appended, so a
// bad file publishes nothing.
func (n *Node) Publish(ctx context.Context) ([]events.Event, error) {
	if err := n.CatchUp(ctx); err != nil {
		return nil, err
	}
	evs, err := n.Plan()
	if err != nil {
		return nil, err
	}
	for i := range evs {
		if err := n.Record(ctx, evs[i]); err != nil {
			return evs[:i], fmt.Errorf("publish %s: %w", evs[i].Type, err)
		}
	}
	return evs, nil
}

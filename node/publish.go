package node

import (
	"context"
	"errors"
	"fmt"

	"github.com/clumsies/clumsies/catalog"
	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
)

// Plan scans the content tree and returns the catalog events that would
// bring the manifest in line with it, and the sequence of the catalog
// aggregate the manifest it compared with was at.
func (n *Node) Plan() ([]events.Event, uint64, error) {
	files, err := content.Scan(n.WS.ContentRoot())
	if err != nil {
		return nil, 0, err
	}
	objs, seq := n.Store.Manifest()
	pub := make([]catalog.Published, len(objs))
	for i, o := range objs {
		pub[i] = catalog.Published{ID: o.ID, Kind: o.Kind, Path: o.Path, Hash: o.Hash}
	}
	evs, err := catalog.Plan(n.WS.ID(), files, pub)
	return evs, seq, err
}

// maxPlans bounds how often Publish plans again after another writer
// changed the manifest under it.
const maxPlans = 8

// Publish appends the catalog events that bring the manifest in line with
// the content tree and waits until they are applied. An unchanged tree
// appends nothing. It returns the events appended.
//
// The plan is a decision on the manifest as of one sequence of the catalog
// aggregate: each event is appended on the condition that the aggregate is
// still where the plan (or the event before it) left it. If another writer
// came first, the manifest is read again and what is left is planned
// again. The tree is scanned and checked whole before anything is
// appended, so a bad file publishes nothing.
func (n *Node) Publish(ctx context.Context) ([]events.Event, error) {
	if _, err := n.CatchUp(ctx); err != nil {
		return nil, err
	}
	var done []events.Event
	for attempt := 1; ; attempt++ {
		evs, seq, err := n.Plan()
		if err != nil {
			return done, err
		}
		conflict := false
		for i := range evs {
			next, err := n.Log.AppendExpecting(ctx, evs[i], events.Expectation{Aggregate: events.AggregateCatalog, LastSeq: seq})
			if errors.Is(err, events.ErrConflict) && attempt < maxPlans {
				conflict = true
				break
			}
			if err != nil {
				return done, fmt.Errorf("publish %s: %w", evs[i].Type, err)
			}
			if err := n.WaitApplied(ctx, next); err != nil {
				return done, fmt.Errorf("publish %s: %w", evs[i].Type, err)
			}
			done, seq = append(done, evs[i]), next
		}
		if !conflict {
			return done, nil
		}
		if _, err := n.CatchUp(ctx); err != nil {
			return done, err
		}
	}
}

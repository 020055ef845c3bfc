package node

import (
	"context"
	"errors"
	"fmt"

	"github.com/clumsies/clumsies/catalog"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections"
)

// decideDraft records the event that decide makes of the facts of draft
// id, once the read models are open (else an error wrapping ErrProjector),
// deciding again when another draft event came first, and waits until the
// read models applied it. It returns false when decide records nothing.
func (n *Node) decideDraft(ctx context.Context, id string, decide DraftDecision) (bool, error) {
	for attempt := 0; attempt < 5; attempt++ {
		store, err := n.storeReady()
		if err != nil {
			return false, err
		}
		f, err := store.DraftFacts(ctx, catalog.DraftQuery{ID: id})
		if err != nil {
			return false, err
		}
		ev, ok, err := decide(f)
		if err != nil || !ok {
			return false, err
		}
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
			return false, fmt.Errorf("record %s of %s: %w", ev.Type, id, err)
		}
		return true, n.WaitApplied(ctx, seq)
	}
	return false, fmt.Errorf("record %s: the drafts kept changing", id)
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

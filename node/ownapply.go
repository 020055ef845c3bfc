package node

import (
	"context"
	"fmt"

	"github.com/clumsies/clumsies/events"
)

// ownApply applies the events a large publish appends to the read models
// itself, as they are appended, while the projector is held
// (projhold.go): nobody reads them back from the ledger. A message block
// of the stream that nobody reads while it is written gives its buffer to
// the next one; one read while written keeps its cache for ten seconds
// (see events/natsjs tail.go), and a projector reading the events after
// the publish held two more 8 MiB block buffers and its pull of events.
//
// The events come as the log stored them (natsjs.Log.AppendExpectingStored),
// so the read models get what they would have read. When other writers'
// events come in between, the projector is let go until it has applied
// them and the publish's event after them, and held again.
type ownApply struct {
	n       *Node
	release func() // lets the projector go on; nil while it is not held
	batch   []events.Event
}

// errNoProjections means the read models were closed under a publish.
var errNoProjections = fmt.Errorf("%w: projections are not open", ErrProjector)

// ownBatch is how many events ownApply applies in one commit of the read
// models.
const ownBatch = 64

// applyOwn holds the projector and returns the ownApply of a publish.
// Call close when the publish ends.
func (n *Node) applyOwn(ctx context.Context) (*ownApply, error) {
	release, err := n.holdProjector(ctx)
	if err != nil {
		return nil, err
	}
	return &ownApply{n: n, release: release, batch: make([]events.Event, 0, ownBatch)}, nil
}

// add applies ev, an event of the publish as stored, after the events
// before it.
func (a *ownApply) add(ctx context.Context, ev events.Event) error {
	store := a.n.store()
	if store == nil {
		return errNoProjections
	}
	if ev.Seq == store.Checkpoint()+uint64(len(a.batch))+1 {
		if a.batch = append(a.batch, ev); len(a.batch) < ownBatch {
			return nil
		}
		return a.flush()
	}
	// Events of other writers came in between: the projector reads them,
	// and ev after them.
	if err := a.flush(); err != nil {
		return err
	}
	a.release()
	a.release = nil
	if err := a.n.WaitApplied(ctx, ev.Seq); err != nil {
		return err
	}
	release, err := a.n.holdProjector(ctx)
	if err != nil {
		return err
	}
	a.release = release
	return nil
}

// flush applies the events held.
func (a *ownApply) flush() error {
	if len(a.batch) == 0 {
		return nil
	}
	err := errNoProjections
	if store := a.n.store(); store != nil {
		err = store.Apply(a.batch...)
	}
	clear(a.batch)
	a.batch = a.batch[:0]
	return err
}

// close applies the events held and lets the projector go on. After an
// error the projector reads from the ledger what was not applied.
func (a *ownApply) close() error {
	err := a.flush()
	if a.release != nil {
		a.release()
		a.release = nil
	}
	return err
}

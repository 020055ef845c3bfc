package node

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections"
)

// DefaultCheckpointEvery is how many events `clumsies serve` lets pass
// between two ledger.checkpoint events.
const DefaultCheckpointEvery = 1000

// checkpointTries bounds how often Checkpoint tries again when other
// processes' appends keep landing between the projector and the append.
const checkpointTries = 5

// Checkpoint appends a ledger.checkpoint pinning the hash chain as the
// projections have computed it, right after the last event they applied:
// the append is made on the condition that the stream still ends there
// (natsjs.Log.AppendAfter), so that the checkpoint covers exactly the
// events before it. When other appends come first, it waits for the
// projections to apply them and tries again, a few times. It appends
// nothing, and reports false, when the newest event is a checkpoint
// already or the ledger is empty. The checkpoint carries no signature: a
// node identity (the hub's) will add Node and Signature.
func (n *Node) Checkpoint(ctx context.Context) (bool, error) {
	for try := 1; ; try++ {
		if _, err := n.CatchUp(ctx); err != nil {
			return false, err
		}
		store := n.store()
		if store == nil {
			return false, fmt.Errorf("append a checkpoint: %w: the read models are not open", ErrProjector)
		}
		head := store.Chain()
		if head.Seq == 0 || head.LastCheckpoint == head.Seq {
			return false, nil
		}
		ev, err := events.New(n.WS.ID(), events.TypeCheckpoint, events.CheckpointData{Seq: head.Seq, Digest: head.Digest})
		if err != nil {
			return false, err
		}
		_, err = n.Log.AppendAfter(ctx, ev, head.Seq)
		if err == nil {
			return true, nil
		}
		if !errors.Is(err, events.ErrConflict) || try == checkpointTries {
			return false, fmt.Errorf("append a checkpoint after seq %d: %w", head.Seq, err)
		}
	}
}

// store returns the open read models, nil while there are none.
func (n *Node) store() *projections.Store {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.Store
}

// checkpoints is the owner's part that appends a checkpoint (with
// checkpoint: Checkpoint, with a rebuild held off) each time
// Options.CheckpointEvery events have passed since the last one, until
// ctx ends. A checkpoint that cannot be appended is logged and tried
// again at the next occasion: checkpoints pin the chain, the chain itself
// goes on without them.
func (n *Node) checkpoints(ctx context.Context, checkpoint func(context.Context) (bool, error)) error {
	if n.every <= 0 {
		<-ctx.Done()
		return nil
	}
	for ctx.Err() == nil {
		store := n.store()
		if store == nil {
			if !sleep(ctx, 100*time.Millisecond) {
				return nil
			}
			continue
		}
		next := store.Chain().LastCheckpoint + uint64(n.every)
		if err := store.WaitFor(ctx, next); err != nil {
			// The store closed (a rebuild replaces it) or ctx ended.
			if !sleep(ctx, 100*time.Millisecond) {
				return nil
			}
			continue
		}
		if _, err := checkpoint(ctx); err != nil && ctx.Err() == nil {
			n.logger.Warn("cannot append a ledger checkpoint now; trying again later", "err", err)
			if !sleep(ctx, time.Second) {
				return nil
			}
		}
	}
	return nil
}

// sleep waits for d or until ctx ends; it reports whether ctx is still
// live.
func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// closeCheckpointTimeout bounds the checkpoint an owner appends as it
// shuts down.
const closeCheckpointTimeout = 5 * time.Second

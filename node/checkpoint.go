package node

import (
	"context"
	"encoding/base64"
	"fmt"
	"time"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections"
)

// DefaultCheckpointEvery is how many events `clumsies serve` lets pass
// between two ledger.checkpoint events.
const DefaultCheckpointEvery = 1000

// checkpointLag bounds how far the projections may be behind the stream
// when a checkpoint of their chain is appended, well within
// events.CheckpointWindow.
const checkpointLag = 1024

// Checkpoint appends a ledger.checkpoint pinning the hash chain as the
// projections have computed it, once they have caught up with the
// stream: other processes' events may land between what it covers and
// the checkpoint itself, a few at most (events.CheckpointWindow allows
// many more). It appends nothing, and reports false, when the newest
// event the projections applied is a checkpoint or the ledger is empty,
// and when the projections are more than checkpointLag events behind
// the stream. With a CheckpointKey the checkpoint carries the node's id
// and its signature of events.CheckpointMessage.
func (n *Node) Checkpoint(ctx context.Context) (bool, error) {
	last, err := n.CatchUp(ctx)
	if err != nil {
		return false, err
	}
	store := n.store()
	if store == nil {
		return false, fmt.Errorf("append a checkpoint: %w: the read models are not open", ErrProjector)
	}
	head := store.Chain()
	switch {
	case head.Seq == 0 || head.LastCheckpoint == head.Seq:
		return false, nil
	case head.Seq+checkpointLag < last:
		// (head.Seq > last is another process's event that arrived after
		// CatchUp read the stream: nothing wrong.)
		return false, fmt.Errorf("append a checkpoint: the read models' chain is at seq %d, the stream at %d", head.Seq, last)
	}
	cp := events.CheckpointData{Seq: head.Seq, Digest: head.Digest}
	if n.key != nil {
		sig, err := n.key.Sign(events.CheckpointMessage(n.WS.ID(), cp.Seq, cp.Digest))
		if err != nil {
			return false, fmt.Errorf("sign the checkpoint of seq %d: %w", head.Seq, err)
		}
		cp.Node, cp.Signature = n.key.NodeID(), base64.RawURLEncoding.EncodeToString(sig)
	}
	ev, err := events.New(n.WS.ID(), events.TypeCheckpoint, cp)
	if err != nil {
		return false, err
	}
	if _, err := n.Log.Append(ctx, ev); err != nil {
		return false, fmt.Errorf("append a checkpoint of seq %d: %w", head.Seq, err)
	}
	return true, nil
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
	if n.every <= 0 || n.noChain {
		<-ctx.Done()
		return nil
	}
	for ctx.Err() == nil {
		store := n.store()
		if store == nil {
			if !sleep(ctx, 20*time.Millisecond) {
				return nil
			}
			continue
		}
		// Count from the newest checkpoint the projections hold, once they
		// hold everything the stream does: the one just appended here
		// included (read before it is applied, the count would start from
		// the one before, and a checkpoint would follow at once).
		if _, err := n.CatchUp(ctx); err != nil {
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
		if _, err := n.unheld(ctx, checkpoint); err != nil && ctx.Err() == nil {
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
// shuts down: the projections catch up within milliseconds, and an owner
// whose projector is stuck must still close soon.
const closeCheckpointTimeout = 2 * time.Second

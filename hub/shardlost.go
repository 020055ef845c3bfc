package hub

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// A shard stream can be lost: deleted by hand, or its store gone. What
// it held the hub counted already (the aggregate and the read models
// hold it), and what follows is handled so that nothing is skipped or
// counted twice:
//
//   - The hub makes the shard again at once, empty, with its nodes'
//     sources (watchLostShards; a shard lost while the hub was down is
//     made again by the first write of the sources at its start). Each
//     node's source starts where it did when the node joined (its
//     ledger's start, or Node.SourceFrom), so the new shard takes the
//     node's older events again.
//   - The aggregate sources the new shard from its start: nats-server
//     (v2.15.3, the release the hub runs) records the identity of each
//     stream a source reads
//     (a hash of its creation time) and resets the source when the
//     stream was made again ("source stream ... was recreated, resetting
//     source state" in the server's log).
//   - Nothing is doubled: the aggregate drops the events it took within
//     its de-duplication window (Nats-Msg-Id, 10 minutes), and the
//     projector counts an event once whatever the aggregate holds (by
//     event id, forever).
//   - The projector does not wait for a copy the shard no longer holds
//     (projector.origin): a message of the aggregate whose copy is gone,
//     or whose shard holds another message at that sequence now, is
//     counted from the aggregate's own copy, without its sequence in the
//     node's ledger. The node's chain then shows the span it could not
//     check as missing, unless the new shard brings those events again
//     after the de-duplication window (then their copies complete it).

// shardDeletedAdvisories is where JetStream tells the hub's account that
// a stream of it was deleted; the last token is the stream's name.
const shardDeletedAdvisories = "$JS.EVENT.ADVISORY.STREAM.DELETED.*"

// How a deleted shard is made again: JetStream announces the deletion
// before its files are all gone, and a stream made again at once can
// fail on them ("error creating store for stream").
const (
	remakePause = 500 * time.Millisecond
	remakeTries = 20
)

// watchLostShards makes a shard stream again as soon as it is deleted:
// the hub forgets the source list it wrote last to it (so that the next
// write of the sources is not skipped as unchanged, setSources) and, if
// it writes the sources, writes them. Every hub of a cluster hears the
// advisory and forgets; the writer writes. The subscription ends with
// the hub's connection.
func (h *Hub) watchLostShards() error {
	_, err := h.nc.Subscribe(shardDeletedAdvisories, func(m *nats.Msg) {
		name := m.Subject[strings.LastIndexByte(m.Subject, '.')+1:]
		if _, ok := hubwire.ShardOf(name); !ok {
			return
		}
		p := h.shares
		p.mu.Lock()
		defer p.mu.Unlock()
		p.start(func() { h.remakeShard(p.ctx, name) })
	})
	if err != nil {
		return fmt.Errorf("watch for lost shards of the aggregate: %w", err)
	}
	return nil
}

// remakeShard has the writer make shard stream name again, trying again
// while the write fails, until ctx ends (the hub closes).
func (h *Hub) remakeShard(ctx context.Context, name string) {
	h.logger.Warn("a shard of the aggregate was deleted; making it again", "stream", name)
	h.ctrl.Lock()
	delete(h.written, name)
	h.ctrl.Unlock()
	var err error
	for range remakeTries {
		select {
		case <-ctx.Done():
			return
		case <-time.After(remakePause):
		}
		if !h.writesSources() {
			return // the writer heard the advisory too
		}
		if err = h.sourceWrites.sync(ctx); err == nil {
			h.logger.Info("made the deleted shard of the aggregate again", "stream", name)
			return
		}
	}
	h.logger.Warn("could not make the deleted shard of the aggregate again; the next write of its sources will", "stream", name, "err", err)
}

package hub

import (
	"context"
	"errors"
	"fmt"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// moveToShards places in shards the active nodes the registry holds
// without one: the nodes of a hub made before the aggregate was sharded,
// whose aggregate sources their ledgers itself. The caller holds ctrl.
//
// Nothing is lost or doubled: the aggregate's direct sources are removed
// first (its list then holds only the shards, none yet), so that it takes
// nothing more from the nodes; then each node's last message in the
// aggregate gives the last sequence of its ledger the aggregate holds,
// recorded in its registry entry with its shard (Node.SourceFrom, once:
// placeOnce), and its shard sources the ledger after it. A hub stopped half-way does the
// rest at its next start: the nodes not recorded yet are read again from
// the aggregate, which took nothing from them since.
func (h *Hub) moveToShards(ctx context.Context) error {
	var loose []hubwire.Node
	for _, n := range h.reg.nodes() {
		if n.Active() && n.Shard == 0 {
			loose = append(loose, n)
		}
	}
	if len(loose) == 0 {
		return nil
	}
	agg, err := h.js.Stream(ctx, hubwire.AggregateStream)
	if errors.Is(err, jetstream.ErrStreamNotFound) {
		agg = nil // nothing sourced yet: every node from its first event
	} else if err != nil {
		return fmt.Errorf("move the nodes to shards: %w", err)
	}
	if agg != nil {
		// The loose nodes have no shard: the lists derived now source
		// none of them.
		if err := h.setSources(ctx, nil); err != nil {
			return fmt.Errorf("move the nodes to shards: stop the aggregate's sources of the nodes: %w", err)
		}
	}
	for _, n := range placeAll(loose, h.reg.nodes(), h.placer.size) {
		if agg != nil {
			if n.SourceFrom, err = lastHeld(ctx, agg, n); err != nil {
				return fmt.Errorf("move the nodes to shards: %w", err)
			}
		}
		if _, err := h.reg.placeOnce(ctx, n); err != nil {
			return fmt.Errorf("move the nodes to shards: %w", err)
		}
	}
	h.logger.Info("moved the nodes to shards of the aggregate", "nodes", len(loose), "shards", shardCount(h.reg.nodes()))
	return nil
}

// lastHeld returns the last sequence of node n's ledger the aggregate
// holds, from the source header of its last message there; 0 if it holds
// none.
func lastHeld(ctx context.Context, agg jetstream.Stream, n hubwire.Node) (uint64, error) {
	var msg *jetstream.RawStreamMsg
	err := retry(ctx, func(ctx context.Context) error {
		var err error
		msg, err = agg.GetLastMsgForSubject(ctx, nodeSubjects(n))
		return err
	})
	if errors.Is(err, jetstream.ErrMsgNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("read node %s's last message in the aggregate: %w", n.ID, err)
	}
	_, _, _, typ, _ := splitSubject(msg.Subject)
	seq, err := checkSource(msg.Header.Get(streamSourceHeader), n, typ)
	if err != nil {
		return 0, fmt.Errorf("node %s's last message in the aggregate (seq %d): %w", n.ID, msg.Sequence, err)
	}
	return seq, nil
}

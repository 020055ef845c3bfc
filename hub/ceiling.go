package hub

import (
	"errors"
	"fmt"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// MaxNodes is the most active nodes a hub (or a cluster, which shares
// one aggregate) takes. The aggregate no longer bounds it: a join, a
// revoke or a re-sourcing writes the source list of one shard (at most
// ShardSize nodes), and the aggregate's own list holds one source per
// shard (200 at this bound). One join's write into a full shard of 500
// (the size before 100) measured the same, about 0.1-0.25 s under load,
// at 1,000, 4,000, 10,000 and 20,000 registered nodes, where the one
// aggregate of before took 11 s at 10,000 (go run
// ./internal/bench -only hubsources; BENCHMARKS.md, "Sources per
// aggregate"). What stops a hub before this bound is its memory: each
// linked node costs about 0.4 MiB of the hub's RSS (docs/hub.md,
// "Measured limits"), 8 GiB at 20,000; no more than 1,000 linked nodes
// were run. The bound is where the measurements stop.
const MaxNodes = 20000

// ErrFull means the hub holds MaxNodes active nodes: a join is refused
// before its invite is used. The API answers it as a conflict: the
// request is well formed, the hub's state refuses it.
var ErrFull = errors.New("hub: the hub holds as many nodes as it takes")

// checkRoom refuses the join of a new node once the registry holds
// h.maxNodes active nodes; a node already registered (a join asked again)
// passes.
func (h *Hub) checkRoom(nodeID string) error {
	if _, known := h.reg.node(nodeID); known {
		return nil
	}
	active := 0
	h.reg.eachNode(func(n *hubwire.Node) {
		if n.Active() {
			active++
		}
	})
	if active >= h.maxNodes {
		return fmt.Errorf("%w (%d); revoke the nodes no longer used (clumsies hub nodes, clumsies hub revoke), or run another hub or cluster for more workspaces (docs/hub.md, \"Measured limits\")", ErrFull, h.maxNodes)
	}
	return nil
}

// AggregateConfig is the aggregate stream's configuration with a source
// for each of nodes, replicated replicas times, as a hub wrote it before
// the shards: for measuring nats-server's handling of one long list
// against the shards' (internal/bench).
func AggregateConfig(nodes []hubwire.Node, replicas int) jetstream.StreamConfig {
	cfg := aggregateStream(replicas)
	for _, n := range nodes {
		cfg.Sources = append(cfg.Sources, source(n))
	}
	return cfg
}

// ShardedConfigs is what a hub writes for nodes, replicated replicas
// times: each shard of ShardSize with the sources of its active nodes,
// then the aggregate sourcing the shards. The nodes without a shard are
// placed as joins one after the other would be (internal/bench).
func ShardedConfigs(nodes []hubwire.Node, replicas int) []jetstream.StreamConfig {
	var placed, loose []hubwire.Node
	for _, n := range nodes {
		if n.Shard > 0 || !n.Active() {
			placed = append(placed, n)
		} else {
			loose = append(loose, n)
		}
	}
	placed = append(placed, placeAll(loose, placed, ShardSize)...)
	return streamConfigs(placed, replicas, hubwire.Node.Active)
}

package hub

import (
	"errors"
	"fmt"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// MaxNodes is the most active nodes a hub (one aggregate stream) takes.
// Every change of the aggregate's sources (a join, a revoke, the
// re-sourcing of the nodes whose links came up) writes its whole source
// list, about 320 B per node, and nats-server's update of a stream's
// sources grows with the square of the list: for each source it goes
// over every source (createSourcingConsumerHash, in its consumer.go). One
// write took 33 ms at 1,000 sources, 0.6 s at 4,000 and 2.5 s at 10,000 on
// a quiet moment, 3.2 s at 5,000 and more than the hub's 5 s bound per
// attempt at 10,000 under load (go run ./internal/bench -only hubsources;
// BENCHMARKS.md, "Sources per aggregate"). The 8 MiB payload limit would
// only stop the list at about 26,000 sources.
const MaxNodes = 4000

// ErrFull means the hub holds MaxNodes active nodes: a join is refused
// before its invite is used. The API answers it as a conflict: the
// request is well formed, the hub's state refuses it.
var ErrFull = errors.New("hub: the hub holds as many nodes as one aggregate stream takes")

// checkRoom refuses the join of a new node once the registry holds
// h.maxNodes active nodes; a node already registered (a join asked again)
// passes.
func (h *Hub) checkRoom(nodeID string) error {
	if _, known := h.reg.node(nodeID); known {
		return nil
	}
	active := 0
	for _, n := range h.reg.nodes() {
		if n.Active() {
			active++
		}
	}
	if active >= h.maxNodes {
		return fmt.Errorf("%w (%d); revoke the nodes no longer used (clumsies hub nodes, clumsies hub revoke), or run another hub for more workspaces (docs/hub.md, \"Measured limits\")", ErrFull, h.maxNodes)
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

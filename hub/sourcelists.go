package hub

import (
	"github.com/nats-io/nats.go/jetstream"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// sourceList is what one stream of the aggregate sources, as setSources
// compares it with what this hub wrote last (Hub.written): for a shard,
// the ids of its sourced nodes in the registry's order (by id); for the
// aggregate, the stream names of its shards.
type sourceList struct {
	stream string
	names  []string
}

// sourceLists returns the list of every stream of the aggregate in the
// order setSources writes them: the shards (1 to shardCount), then the
// aggregate. A shard sources its active nodes whose accounts every hub
// knows (peers.go), the aggregate every shard; the nodes and shards named
// in except are left out (a kick at a new leader leaves out all of them).
//
// It reads the registry in place and costs a comparison per node: the
// configurations themselves are built only for the streams whose list
// changed (streamConfig). Built for every node at each write, as they
// were, they cost a tenth of a hub's CPU during a storm of joins at 3,000
// nodes, and their garbage much of the collector's share, which is what
// made the last joins of a thousand wait longer than the first.
func (h *Hub) sourceLists(except []string) []sourceList {
	left := make(map[string]bool, len(except))
	for _, name := range except {
		left[name] = true
	}
	var shards [][]string
	h.reg.eachNode(func(n *hubwire.Node) {
		for len(shards) < n.Shard {
			shards = append(shards, make([]string, 0, ShardSize))
		}
		if n.Shard > 0 && n.Active() && h.accounts.isShared(n.ID) && !left[n.ID] {
			shards[n.Shard-1] = append(shards[n.Shard-1], n.ID)
		}
	})
	out := make([]sourceList, 0, len(shards)+1)
	top := sourceList{stream: hubwire.AggregateStream}
	for k, ids := range shards {
		name := hubwire.ShardStream(k + 1)
		out = append(out, sourceList{stream: name, names: ids})
		if !left[name] {
			top.names = append(top.names, name)
		}
	}
	return append(out, top)
}

// streamConfig is the configuration of l's stream with a source for each
// of its names, and the names it holds: a node the registry no longer
// has between sourceLists and here is left out, and its list says so.
func (h *Hub) streamConfig(l sourceList) (jetstream.StreamConfig, []string) {
	k, shard := hubwire.ShardOf(l.stream)
	if !shard {
		cfg := aggregateStream(h.cfg.Replicas())
		for _, name := range l.names {
			cfg.Sources = append(cfg.Sources, &jetstream.StreamSource{Name: name})
		}
		return cfg, l.names
	}
	cfg := shardStream(k, h.cfg.Replicas())
	names := make([]string, 0, len(l.names))
	for _, id := range l.names {
		if n, ok := h.reg.node(id); ok {
			cfg.Sources = append(cfg.Sources, source(n))
			names = append(names, id)
		}
	}
	return cfg, names
}

package hub

import (
	"sync"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// ShardSize is the most active nodes one shard stream sources. Every
// change of a shard's nodes (a join, a revoke, the re-sourcing of a node
// whose link came up) writes that shard's whole source list, and
// nats-server's update of a stream's sources grows with the square of the
// list (for each source it goes over every source to name its consumer,
// createSourcingConsumerHash in its consumer.go). A join's write so costs
// what its shard's fill makes it cost: with shards of 500 the joins into
// a shard's last hundred waited 3.7-4.8x what the first hundred did
// (docs/hub.md, "Measured limits"); with shards of 100 every hundred
// joins fills a shard from empty, the first hundred as the thousandth.
// The aggregate's own list holds one source per shard (200 at MaxNodes),
// written only when a shard is made.
//
// Shards filled under a larger size, by an earlier release, stay as they
// are: a node keeps the shard its registry entry names (Node.Shard), and
// a shard that holds ShardSize active nodes or more takes no new one
// until revokes bring it under (firstRoom).
const ShardSize = 100

// shardPlacer places joining nodes in shards: the first shard (from 1)
// with fewer than size active nodes, counting the nodes placed here
// whose join has not reached the registry yet. Placement is recorded in
// the node's registry entry (Node.Shard) and never changes, so every hub
// of a cluster sources a node from the same shard; a revoked node frees
// its place. Its answer is the hint where a join starts looking: the
// place itself is taken with a compare-and-set on the shard's entry in
// the registry's bucket (shardplaces.go), so that joins at two hubs of a
// cluster at once cannot put more than size nodes in a shard.
type shardPlacer struct {
	size int

	mu      sync.Mutex
	pending map[string]int // node id -> shard, placed, not yet in the registry
}

func newShardPlacer(size int) *shardPlacer {
	return &shardPlacer{size: size, pending: map[string]int{}}
}

// place returns node id's shard given counts, the registry's active
// nodes by shard (registry.shardCounts), and registered, which tells a
// node in the registry; done must be called once the node's entry is in
// the registry, or its join failed.
func (p *shardPlacer) place(id string, counts map[int]int, registered func(id string) bool) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	for pid, k := range p.pending {
		if registered(pid) {
			delete(p.pending, pid) // in the registry: counted in counts
			continue
		}
		counts[k]++
	}
	k := firstRoom(counts, p.size)
	p.pending[id] = k
	return k
}

// done forgets node id's placement in flight.
func (p *shardPlacer) done(id string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.pending, id)
}

// firstRoom is the first shard, from 1, that counts fewer than size
// nodes.
func firstRoom(counts map[int]int, size int) int {
	k := 1
	for counts[k] >= size {
		k++
	}
	return k
}

// placeAll gives each node of loose (active, without a shard) its shard
// among nodes, in order, as joins one after the other would.
func placeAll(loose, nodes []hubwire.Node, size int) []hubwire.Node {
	counts := map[int]int{}
	for _, n := range nodes {
		if n.Active() && n.Shard > 0 {
			counts[n.Shard]++
		}
	}
	out := make([]hubwire.Node, len(loose))
	for i, n := range loose {
		n.Shard = firstRoom(counts, size)
		counts[n.Shard]++
		out[i] = n
	}
	return out
}

// shardCount is the number of shard streams the registry's nodes name:
// the highest shard of any node, active or revoked. It never shrinks, so
// the aggregate keeps sourcing a shard whose nodes were all revoked.
func shardCount(nodes []hubwire.Node) int {
	m := 0
	for _, n := range nodes {
		m = max(m, n.Shard)
	}
	return m
}

// shardStream is shard k's configuration without its sources: the
// aggregate's, under its own name. Like the aggregate it keeps every
// message (no limit of age, count or size): the projector reads, for
// each message of the aggregate, the copy in its shard, whose source
// header names the node's ledger and sequence (the aggregate's names the
// shard), so a rebuild of the read models needs the shards as they are.
func shardStream(k, replicas int) jetstream.StreamConfig {
	cfg := aggregateStream(replicas)
	cfg.Name = hubwire.ShardStream(k)
	cfg.Description = "the ledgers of the nodes of shard " + hubwire.ShardStream(k) + ", subjects hub.<team>.<workspaceId>.<nodeId>.<type>"
	return cfg
}

// shardSource is the aggregate's source of shard k: its messages as they
// are, subjects unchanged.
func shardSource(k int) *jetstream.StreamSource {
	return &jetstream.StreamSource{Name: hubwire.ShardStream(k)}
}

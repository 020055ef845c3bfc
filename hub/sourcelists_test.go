package hub

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// listsHub is a hub holding a registry of n nodes, ordered by id, in
// shards of ShardSize by join order; every seventh node revoked, every
// eleventh not yet known to every hub of its cluster.
func listsHub(rng *rand.Rand, n int) *Hub {
	h := &Hub{cfg: &Config{}, reg: &registry{}, accounts: newAccounts(nil)}
	for i := range n {
		node := hubwire.Node{ID: fmt.Sprintf("n-%016x", rng.Uint64()), Team: "red", Workspace: fmt.Sprintf("ws-%d", i), Shard: i/ShardSize + 1}
		if i%7 == 3 {
			node.Revoked = time.Unix(1, 0)
		}
		if i%11 != 5 {
			h.accounts.share(node.ID)
		}
		h.reg.d.Nodes = upsert(h.reg.d.Nodes, node, idOfNode)
	}
	return h
}

// TestSourceLists_AsTheConfigurationsSay: the lists setSources compares,
// and the configuration it builds for a stream whose list changed, are
// what the whole derivation from the registry (streamConfigs) gives,
// with and without nodes and shards left out by a kick.
func TestSourceLists_AsTheConfigurationsSay(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, size := range []int{0, 1, 99, 100, 101, 350} {
		h := listsHub(rng, size)
		nodes := h.reg.d.Nodes
		var except []string
		for i, n := range nodes {
			if i%13 == 0 {
				except = append(except, n.ID)
			}
		}
		if len(nodes) > ShardSize {
			except = append(except, hubwire.ShardStream(2))
		}
		for _, left := range [][]string{nil, except} {
			skip := map[string]bool{}
			for _, name := range left {
				skip[name] = true
			}
			want := streamConfigs(nodes, 1, func(n hubwire.Node) bool {
				return n.Active() && h.accounts.isShared(n.ID) && !skip[n.ID]
			})
			top := &want[len(want)-1]
			var kept []*jetstream.StreamSource
			for _, src := range top.Sources {
				if !skip[src.Name] {
					kept = append(kept, src)
				}
			}
			top.Sources = kept
			lists := h.sourceLists(left)
			if len(lists) != len(want) {
				t.Fatalf("%d nodes, except %d: %d lists, want %d streams", size, len(left), len(lists), len(want))
			}
			for i, l := range lists {
				got, names := h.streamConfig(l)
				if !reflect.DeepEqual(got, want[i]) {
					t.Fatalf("%d nodes, except %d: stream %s:\n got %+v\nwant %+v", size, len(left), l.stream, got, want[i])
				}
				if !reflect.DeepEqual(names, l.names) && (len(names) > 0 || len(l.names) > 0) {
					t.Fatalf("stream %s holds %v, its list says %v", l.stream, names, l.names)
				}
			}
		}
	}
}

// TestSourceLists_CostDoesNotFollowTheNodes: comparing the lists costs
// no allocation per node, so that the write a join asks for costs what
// its shard holds whatever the registry (3,000 nodes: 30 shards).
func TestSourceLists_CostDoesNotFollowTheNodes(t *testing.T) {
	h := listsHub(rand.New(rand.NewPCG(5, 6)), 3000)
	shards := h.reg.shards()
	allocs := testing.AllocsPerRun(20, func() { h.sourceLists(nil) })
	if limit := float64(3*shards + 10); allocs > limit {
		t.Fatalf("%.0f allocations for %d nodes in %d shards, want at most %.0f (a few per shard)", allocs, len(h.reg.d.Nodes), shards, limit)
	}
}

// TestJoinPath_ReadsTheRegistryInPlace: what every join asks of the
// registry (room for one more node, the nodes a write re-sources) reads
// it in place: a copy of every node per join, as both made, was 40% of
// what a hub allocated during a storm of joins at 2,500 nodes.
func TestJoinPath_ReadsTheRegistryInPlace(t *testing.T) {
	h := listsHub(rand.New(rand.NewPCG(7, 8)), 3000)
	h.maxNodes = MaxNodes
	if b := bytesPerRun(20, func() {
		if err := h.checkRoom("n-new"); err != nil {
			t.Fatal(err)
		}
	}); b > 1024 {
		t.Fatalf("checking the room for a join allocated %d bytes over 3,000 nodes", b)
	}
	ask := sourceAsk{Kick: []string{"n-a"}}
	if b := bytesPerRun(20, func() { ask.kicks(h.reg) }); b > 1024 {
		t.Fatalf("the kicks of a join's write allocated %d bytes over 3,000 nodes", b)
	}
	shards := sourceAsk{Shards: []int{2}}
	if got := len(shards.kicks(h.reg)); got < 80 {
		t.Fatalf("a shard's kick re-sources %d names, want its active nodes and the shard", got)
	}
}

// bytesPerRun is what f allocates per call, on average over runs calls.
func bytesPerRun(runs int, f func()) uint64 {
	f()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range runs {
		f()
	}
	runtime.ReadMemStats(&after)
	return (after.TotalAlloc - before.TotalAlloc) / uint64(runs)
}

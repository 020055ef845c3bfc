package hub_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/clumsies/clumsies/hub"
	"github.com/clumsies/clumsies/hub/hubwire"
)

// fixtureNode is a workspace clone of testdata/hub-before-shards.tar.gz.
type fixtureNode struct {
	Dir     string `json:"dir"`
	Node    string `json:"node"`
	Team    string `json:"team"`
	Events  int    `json:"events"`
	Revoked bool   `json:"revoked"`
}

// TestShards_UpgradeFromOneAggregate opens a hub made before the
// aggregate was sharded: testdata/hub-before-shards.tar.gz holds its
// folder, whose aggregate sources six nodes' ledgers directly (2 to 7
// events each, all in the aggregate; the sixth node revoked), and the
// six workspace clones (fixture.json lists them), made by the release
// before with its test helpers. With shards of 2 nodes, the hub moves
// the five active nodes to three shards, each sourcing its nodes after
// the last event the aggregate held from them: nothing is lost or
// doubled, the nodes' chains hold across the move (the sequences read
// from the shards follow those the aggregate held), and a restart moves
// nothing again.
func TestShards_UpgradeFromOneAggregate(t *testing.T) {
	dir := t.TempDir()
	untar(t, filepath.Join("testdata", "hub-before-shards.tar.gz"), dir)
	var fixture []fixtureNode
	raw, err := os.ReadFile(filepath.Join(dir, "fixture.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &fixture); err != nil {
		t.Fatal(err)
	}
	cfg, err := hub.ReadConfig(filepath.Join(dir, "hub"))
	if err != nil {
		t.Fatal(err)
	}
	cfg.Leaf = "127.0.0.1:" + strconv.Itoa(freePort(t))
	cfg.HTTP = "127.0.0.1:" + strconv.Itoa(freePort(t))
	cfg.SetShardSize(2)
	th := &testHub{dir: filepath.Join(dir, "hub"), cfg: cfg}
	th.start(t)
	t.Cleanup(th.stop)

	old := aggregate(t, th)
	total := 0
	for _, f := range fixture {
		total += f.Events
	}
	if len(old) != total {
		t.Fatalf("the aggregate holds %d events, want the %d of the old hub", len(old), total)
	}
	moved := checkMoved(t, th, fixture)
	checkStreams(t, th, 3)

	want := map[string]bool{}
	for id := range old {
		want[id] = true
	}
	var linked []*testNode
	for _, f := range fixture {
		if !f.Revoked {
			tn := openOld(t, filepath.Join(dir, f.Dir), "nats-leaf://"+cfg.Leaf)
			addAll(want, tn.appendN(t, 3))
			linked = append(linked, tn)
		}
	}
	waitCounted(t, th, want)
	checkChains(t, th, fixture, 3)

	th.stop()
	th.start(t)
	if again := checkMoved(t, th, fixture); !equalNodes(again, moved) {
		t.Fatalf("a restart moved the nodes again: %+v, before %+v", again, moved)
	}
	for _, tn := range linked {
		addAll(want, tn.appendN(t, 2))
	}
	waitCounted(t, th, want)
	checkChains(t, th, fixture, 5)
}

// checkMoved checks that every active node of fixture is in a shard of
// at most two nodes, sourced after the events the old aggregate held
// from it, and that the revoked one was left out; it returns the nodes.
func checkMoved(t *testing.T, th *testHub, fixture []fixtureNode) map[string]hubwire.Node {
	t.Helper()
	nodes := map[string]hubwire.Node{}
	perShard := map[int]int{}
	for _, n := range th.h.Nodes() {
		nodes[n.ID] = n
		if n.Active() {
			perShard[n.Shard]++
		}
	}
	for _, f := range fixture {
		n := nodes[f.Node]
		switch {
		case f.Revoked && n.Shard != 0:
			t.Errorf("revoked node %s was placed in shard %d", f.Node, n.Shard)
		case !f.Revoked && (n.Shard == 0 || perShard[n.Shard] > 2):
			t.Errorf("node %s is in shard %d of %d nodes, want a shard of at most 2", f.Node, n.Shard, perShard[n.Shard])
		case !f.Revoked && n.SourceFrom != uint64(f.Events):
			t.Errorf("node %s is sourced after sequence %d, want %d (the events the old aggregate held)", f.Node, n.SourceFrom, f.Events)
		}
	}
	return nodes
}

func equalNodes(a, b map[string]hubwire.Node) bool {
	if len(a) != len(b) {
		return false
	}
	for id, n := range a {
		if m := b[id]; m.Shard != n.Shard || m.SourceFrom != n.SourceFrom {
			return false
		}
	}
	return true
}

// checkStreams checks that the aggregate sources the shards 1..shards
// and nothing else, and that each shard sources the active nodes the
// registry places in it.
func checkStreams(t *testing.T, th *testHub, shards int) {
	t.Helper()
	js, ctx := hubJS(t, th)
	config := func(name string) jetstream.StreamConfig {
		st, err := js.Stream(ctx, name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return st.CachedInfo().Config
	}
	var got []string
	for _, src := range config(hubwire.AggregateStream).Sources {
		got = append(got, src.Name)
	}
	if len(got) != shards {
		t.Fatalf("the aggregate sources %v, want %d shards", got, shards)
	}
	for k := 1; k <= shards; k++ {
		if got[k-1] != hubwire.ShardStream(k) {
			t.Fatalf("the aggregate sources %v, want the shards 1 to %d", got, shards)
		}
	}
	sourced := map[string]int{}
	for k := 1; k <= shards; k++ {
		for _, src := range config(hubwire.ShardStream(k)).Sources {
			sourced[src.External.APIPrefix] = k
		}
	}
	for _, n := range th.h.Nodes() {
		k, ok := sourced[hub.APIPrefixOf(n.ID)]
		if n.Active() && k != n.Shard || !n.Active() && ok {
			t.Errorf("node %s (active %v, shard %d) is sourced by shard %d", n.ID, n.Active(), n.Shard, k)
		}
	}
}

// hubJS connects to th's JetStream for the rest of the test; the context
// ends after wait.
func hubJS(t *testing.T, th *testHub) (jetstream.JetStream, context.Context) {
	t.Helper()
	nc, err := th.h.Connect()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	js, _ := jetstream.New(nc)
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	t.Cleanup(cancel)
	return js, ctx
}

// waitCounted waits until the aggregate holds want and the hub counts
// each of them once, refusing none.
func waitCounted(t *testing.T, th *testHub, want map[string]bool) {
	t.Helper()
	waitAggregate(t, th, len(want))
	for id := range aggregate(t, th) {
		if !want[id] {
			t.Fatalf("event %s in the aggregate is not one of the nodes'", id)
		}
	}
	// The projector counts the old events on the fixture's day and the
	// new ones today, once each.
	deadline := time.Now().Add(wait)
	for counted(t, th) != len(want) {
		if time.Now().After(deadline) {
			t.Fatalf("the hub counts %d events, want %d", counted(t, th), len(want))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// checkChains checks that the hub's chain of each active node of fixture
// runs through its events and more, without a problem.
func checkChains(t *testing.T, th *testHub, fixture []fixtureNode, more int) {
	t.Helper()
	for _, f := range fixture {
		if f.Revoked {
			continue
		}
		c, err := th.h.NodeChain(f.Node, 0)
		if err != nil {
			t.Fatal(err)
		}
		if c.Through != uint64(f.Events+more) || c.Problem != nil {
			t.Errorf("node %s's chain runs through %d (problem %+v), want %d without a problem", f.Node, c.Through, c.Problem, f.Events+more)
		}
	}
}

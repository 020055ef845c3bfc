package hub_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// TestCluster_Shards runs nine nodes over shards of three on a cluster
// of three hubs: each node joined at one hub and linked to the next, one
// after the other, so that every hub knows the nodes placed before
// (a join answers once every hub set up its account). The shards are
// replicated like the aggregate, every hub counts every event once,
// each shard is led by another hub; after one hub stops, the two others count what the nodes append then.
func TestCluster_Shards(t *testing.T) {
	hubs := newTestCluster(t)
	want := map[string]bool{}
	var linked []*testNode
	for i := range 9 {
		sn := inviteNode(t, hubs[i%3], []string{"red", "blue"}[i%2])
		joinSoon(t, hubs[i%3], sn)
		sn.tn.url = "nats-leaf://" + hubs[(i+1)%3].cfg.Leaf
		sn.tn.open(t)
		t.Cleanup(sn.tn.close)
		linked = append(linked, sn.tn)
		addAll(want, sn.tn.appendN(t, 4))
	}
	checkPlaces(t, hubs[0], 3)
	// Each new shard's lead goes to the server whose turn it is.
	deadline := time.Now().Add(wait)
	for leaders := shardLeaders(t, hubs[0], 3); !distinct(leaders); leaders = shardLeaders(t, hubs[0], 3) {
		if time.Now().After(deadline) {
			t.Fatalf("the shards' leaders are %v, want one shard led by each hub", leaders)
		}
		time.Sleep(100 * time.Millisecond)
	}
	// A shard's new leader has the shard re-sourced (its lists left out,
	// then written again): read the lists once those writes are done.
	settledWrites(t, hubs)
	checkStreams(t, hubs[0], 3)
	for k, th := range hubs {
		waitStats(t, fmt.Sprintf("hub %d", k+1), th, len(want), 2*wait)
	}

	hubs[0].stop()
	for _, tn := range linked {
		addAll(want, tn.appendN(t, 2))
	}
	for k, th := range hubs[1:] {
		waitStats(t, fmt.Sprintf("hub %d", k+2), th, len(want), 2*wait)
	}
}

func distinct(names []string) bool {
	seen := map[string]bool{}
	for _, n := range names {
		if n == "" || seen[n] {
			return false
		}
		seen[n] = true
	}
	return true
}

// shardLeaders returns the server leading each shard, and fails the test
// unless each shard has three replicas.
func shardLeaders(t *testing.T, th *testHub, shards int) []string {
	t.Helper()
	js, ctx := hubJS(t, th)
	var out []string
	for k := 1; k <= shards; k++ {
		st, err := js.Stream(ctx, hubwire.ShardStream(k))
		if err != nil {
			t.Fatal(err)
		}
		info := st.CachedInfo()
		if info.Config.Replicas != 3 || info.Cluster == nil {
			t.Fatalf("%s has %d replicas, want 3", info.Config.Name, info.Config.Replicas)
		}
		out = append(out, info.Cluster.Leader)
	}
	return out
}

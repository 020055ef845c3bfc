package hub_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// TestCluster_ShardLeaderChange moves the lead of a shard, then stops
// the hub leading it while the shard's nodes append. At each change the
// shard's new leader has the writer re-source the shard (a pair of
// writes), the hubs' health names the new leader, and the hubs left
// count every event once. Before, a hub watched only its lead of the
// aggregate and a shard's new leader re-sourced nothing: the
// aggregate's source of the shard, a consumer on the stopped leader,
// waited for nats-server's check of stalled sources (10 to 20 s, and
// 10 s more per failed ask while the shard elects).
func TestCluster_ShardLeaderChange(t *testing.T) {
	hubs := newTestCluster(t)
	var sns []*stormNode
	for i := range 2 {
		sn := inviteNode(t, hubs[i], "red")
		joinSoon(t, hubs[i], sn)
		sns = append(sns, sn)
	}
	first := shardLeaderEverywhere(t, hubs, 1, "", 3)

	// A step down: the writes settled, the new leader has the shard
	// re-sourced. Nothing else writes meanwhile: no node has linked.
	before := settledWrites(t, hubs)
	stepShardLeader(t, hubs[0], 1)
	leader := shardLeaderEverywhere(t, hubs, 1, first, 3)
	deadline := time.Now().Add(wait)
	for sum(sourceWrites(hubs))-before < 2 {
		if time.Now().After(deadline) {
			t.Fatalf("the writes of the sources went from %d to %d in %s after %s took the lead of shard 1, want a re-sourcing (2)", before, sum(sourceWrites(hubs)), wait, leader)
		}
		time.Sleep(20 * time.Millisecond)
	}

	// A stop: the nodes link to the other hubs and append; the hubs left
	// count what they append after the stop.
	var rest []*testHub
	for _, th := range hubs {
		if th.cfg.Name != leader {
			rest = append(rest, th)
		}
	}
	want := map[string]bool{}
	for i, sn := range sns {
		sn.tn.url = "nats-leaf://" + rest[i].cfg.Leaf
		sn.tn.open(t)
		t.Cleanup(sn.tn.close)
		addAll(want, sn.tn.appendN(t, 3))
	}
	for k, th := range hubs {
		waitStats(t, fmt.Sprintf("hub %d", k+1), th, len(want), wait)
	}
	start := time.Now()
	for _, th := range hubs {
		if th.cfg.Name == leader {
			th.stop()
		}
	}
	for _, sn := range sns {
		addAll(want, sn.tn.appendN(t, 3))
	}
	for _, th := range rest {
		waitStats(t, th.cfg.Name+" after the stop of shard 1's leader", th, len(want), wait)
	}
	t.Logf("the events appended after the stop of shard 1's leader were counted %s after it", time.Since(start).Round(time.Millisecond))
	shardLeaderEverywhere(t, rest, 1, leader, 2)
}

// settledWrites waits until the hubs' writes of the sources have not
// changed for two seconds, and returns their sum.
func settledWrites(t *testing.T, hubs []*testHub) uint64 {
	t.Helper()
	deadline := time.Now().Add(wait)
	last, since := sum(sourceWrites(hubs)), time.Now()
	for time.Since(since) < 2*time.Second {
		if time.Now().After(deadline) {
			t.Fatalf("the hubs still write their sources after %s", wait)
		}
		time.Sleep(50 * time.Millisecond)
		if n := sum(sourceWrites(hubs)); n != last {
			last, since = n, time.Now()
		}
	}
	return last
}

func sum(ns []uint64) uint64 {
	var s uint64
	for _, n := range ns {
		s += n
	}
	return s
}

// stepShardLeader asks shard k's leader to step down, through th.
func stepShardLeader(t *testing.T, th *testHub, k int) {
	t.Helper()
	nc, err := th.h.Connect()
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	msg, err := nc.Request("$JS.API.STREAM.LEADER.STEPDOWN."+hubwire.ShardStream(k), nil, wait)
	if err != nil {
		t.Fatalf("step %s's leader down: %v", hubwire.ShardStream(k), err)
	}
	var resp struct {
		Success bool `json:"success"`
	}
	if err := json.Unmarshal(msg.Data, &resp); err != nil || !resp.Success {
		t.Fatalf("step %s's leader down: %s", hubwire.ShardStream(k), msg.Data)
	}
}

// shardLeaderEverywhere waits until the health of every hub of hubs
// names one leader of shard k other than not, the leader's health counts
// current replicas of the shard, and the shard's stream information
// names that leader too; it returns the leader.
func shardLeaderEverywhere(t *testing.T, hubs []*testHub, k int, not string, current int) string {
	t.Helper()
	deadline := time.Now().Add(wait)
	for {
		var leaders []string
		currents := map[string]int{}
		for _, th := range hubs {
			l := ""
			for _, sh := range th.h.Health(context.Background()).Shards {
				if sh.Shard == k && sh.Stream == hubwire.ShardStream(k) {
					l, currents[th.cfg.Name] = sh.Leader, sh.Current
				}
			}
			leaders = append(leaders, l)
		}
		l := leaders[0]
		if l != "" && l != not && currents[l] == current && !slices.ContainsFunc(leaders, func(s string) bool { return s != l }) && shardLeaders(t, hubs[0], k)[k-1] == l {
			return l
		}
		if time.Now().After(deadline) {
			t.Fatalf("the hubs' health names %v leading %s (replicas current at each: %v) after %s, want one hub other than %q, with %d current", leaders, hubwire.ShardStream(k), currents, wait, not, current)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

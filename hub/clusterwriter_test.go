package hub_test

import (
	"context"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/clumsies/clumsies/hub"
	"github.com/clumsies/clumsies/hub/hubwire"
)

// writerOf waits until the hubs of hubs agree on the aggregate's leader,
// which is to write the sources, and returns its index; the leader says
// it writes them.
func writerOf(t *testing.T, hubs []*testHub) int {
	t.Helper()
	deadline := time.Now().Add(wait)
	for {
		leaders := map[string]bool{}
		for _, th := range hubs {
			if th.h != nil {
				leaders[th.h.Health(context.Background()).Leader] = true
			}
		}
		for i, th := range hubs {
			if th.h != nil && len(leaders) == 1 && leaders[th.cfg.Name] && th.h.Health(context.Background()).Writer {
				return i
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the hubs name the aggregate's leaders %v after %s, want one of them that writes", leaders, wait)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// sourceWrites returns how many writes of the sources each hub made.
func sourceWrites(hubs []*testHub) []uint64 {
	out := make([]uint64, len(hubs))
	for i, th := range hubs {
		if th.h != nil {
			out[i] = th.h.Health(context.Background()).SourceWrites
		}
	}
	return out
}

// sourcedNodes returns the nodes the aggregate's configuration sources,
// through its shards, as th reads it.
func sourcedNodes(t *testing.T, th *testHub) []string {
	t.Helper()
	return streamSourcedNodes(t, th, hubwire.AggregateStream)
}

// streamSourcedNodes returns the nodes stream sources, itself or through
// the shards it sources.
func streamSourcedNodes(t *testing.T, th *testHub, stream string) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	st, err := hubJetStream(t, th).Stream(ctx, stream)
	if err != nil {
		t.Fatalf("read the configuration of %s: %v", stream, err)
	}
	var out []string
	for _, src := range st.CachedInfo().Config.Sources {
		switch {
		case src.External != nil:
			out = append(out, strings.TrimSuffix(strings.TrimPrefix(src.External.APIPrefix, "$JS."), ".API"))
		case src.Name != stream:
			out = append(out, streamSourcedNodes(t, th, src.Name)...)
		}
	}
	return out
}

// TestCluster_OneHubWritesSources joins nodes at the three hubs of a
// cluster, then links each to another hub and appends: every join
// answers with its node's source written, the re-sourcing of the links
// is written too, and only the writer (the aggregate's leader) ever
// writes the sources; every hub counts every event once. Each hub used
// to write the whole list itself, so a join made up to three writes of
// it through the cluster's meta layer and each link's kick two at its
// hub.
func TestCluster_OneHubWritesSources(t *testing.T) {
	const nodes, each = 9, 3
	hubs := newTestCluster(t)
	w := writerOf(t, hubs)
	before := sourceWrites(hubs)
	sns := make([]*stormNode, nodes)
	for i := range sns {
		sns[i] = inviteNode(t, hubs[i%3], "red")
	}
	joinEach(sns, nodes, func(i int) *testHub { return hubs[i%3] }, func(i int, err error) {
		if err != nil {
			t.Errorf("join at hub %d: %v", i%3+1, err)
		}
	})
	if t.Failed() {
		t.FailNow()
	}
	// A shard's new leader (each new shard's lead is handed over) has
	// the shard re-sourced: left out, then written again. Read the lists
	// once those writes are done.
	settledWrites(t, hubs)
	sourced := sourcedNodes(t, hubs[(w+1)%3])
	for _, sn := range sns {
		if !slices.Contains(sourced, sn.tn.id.NodeID) {
			t.Fatalf("node %s is not among the aggregate's sources when its join answered (%d sourced)", sn.tn.id.NodeID, len(sourced))
		}
	}
	want := map[string]bool{}
	for i, sn := range sns {
		sn.tn.url = "nats-leaf://" + hubs[(i+1)%3].cfg.Leaf
		sn.tn.open(t)
		t.Cleanup(sn.tn.close)
		addAll(want, sn.tn.appendN(t, each))
	}
	for k, th := range hubs {
		countsExactly(t, th, len(want), k)
	}
	after := sourceWrites(hubs)
	for k := range hubs {
		made := after[k] - before[k]
		switch {
		case k == w && made == 0:
			t.Errorf("the writer, hub %d, wrote the sources 0 times for %d joins and their links", k+1, nodes)
		case k != w && made > 0:
			t.Errorf("hub %d, not the writer (hub %d), wrote the sources %d times", k+1, w+1, made)
		}
	}
}

// countsExactly waits until th's stats count want events, and fails the
// test if they count more, or any refused.
func countsExactly(t *testing.T, th *testHub, want, k int) {
	t.Helper()
	deadline := time.Now().Add(wait)
	for {
		st, err := th.h.Stats(hub.Query{Days: 2})
		if err != nil {
			t.Fatal(err)
		}
		if st.Totals.Events == uint64(want) && st.Refused == 0 {
			return
		}
		if st.Totals.Events > uint64(want) || st.Refused > 0 || time.Now().After(deadline) {
			logStreams(t, th)
			t.Fatalf("hub %d counts %d events (%d refused), want %d", k+1, st.Totals.Events, st.Refused, want)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestCluster_KicksWrittenTogether re-sources six nodes, asked at the
// three hubs while the writer's previous write is held: the writer makes
// all of them with at most two re-sourcings (a pair of writes each: the
// list without the nodes, then the whole list), and the other hubs write
// nothing. Each kick used to be its own pair of writes at the hub that
// asked for it: twelve writes of the whole list for six links.
func TestCluster_KicksWrittenTogether(t *testing.T) {
	const nodes = 6
	hubs := newTestCluster(t)
	sns := make([]*stormNode, nodes)
	for i := range sns {
		sns[i] = inviteNode(t, hubs[i%3], "red")
		joinSoon(t, hubs[i%3], sns[i])
	}
	w := writerOf(t, hubs)
	settledWrites(t, hubs) // the re-sourcings of the new shards' leaders
	before := sourceWrites(hubs)
	release := hubs[w].h.HoldSources()
	var wg sync.WaitGroup
	var failed atomic.Int32
	for i, sn := range sns {
		wg.Go(func() {
			if err := hubs[i%3].h.Kick(context.Background(), sn.tn.id.NodeID); err != nil {
				failed.Add(1)
				t.Errorf("kick %s at hub %d: %v", sn.tn.id.NodeID, i%3+1, err)
			}
		})
	}
	deadline := time.Now().Add(wait)
	for hubs[w].h.KicksAsked() < nodes && failed.Load() == 0 {
		if time.Now().After(deadline) {
			release()
			t.Fatalf("the writer holds %d of the %d kicks asked after %s", hubs[w].h.KicksAsked(), nodes, wait)
		}
		time.Sleep(10 * time.Millisecond)
	}
	release()
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	after := sourceWrites(hubs)
	for k := range hubs {
		made := after[k] - before[k]
		switch {
		case k == w && (made < 2 || made > 4):
			t.Errorf("the writer wrote the sources %d times for six kicks asked together, want 2 to 4", made)
		case k != w && made > 0:
			t.Errorf("hub %d, not the writer, wrote the sources %d times", k+1, made)
		}
	}
	sourced := sourcedNodes(t, hubs[w])
	for _, sn := range sns {
		if !slices.Contains(sourced, sn.tn.id.NodeID) {
			t.Errorf("node %s is not sourced after its kick", sn.tn.id.NodeID)
		}
	}
}

// TestCluster_WriterDiesDuringJoins stops the hub that writes the
// aggregate's sources while joins go on at the two others: every join
// answers (the asks of the joins under way go to the hub elected next)
// with its node's account set up at both surviving hubs, each with its
// node sourced, and once the nodes link and append each surviving hub
// counts every event once. A surviving hub's copy of the registry lagged
// when its watch's consumer was on the stopped hub: it did not set up
// the nodes joined at the other hub meanwhile, dropped the interest of
// their links for good (nats-server#8560), and a node whose shard it
// led was never counted (2 of many runs of the whole suite).
func TestCluster_WriterDiesDuringJoins(t *testing.T) {
	const nodes, inFlight, each = 12, 4, 3
	hubs := newTestCluster(t)
	w := writerOf(t, hubs)
	var alive []*testHub
	for k, th := range hubs {
		if k != w {
			alive = append(alive, th)
		}
	}
	sns := make([]*stormNode, nodes)
	for i := range sns {
		sns[i] = inviteNode(t, alive[i%2], "red")
	}
	var answered atomic.Int32
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		for answered.Load() < inFlight-1 {
			time.Sleep(5 * time.Millisecond)
		}
		hubs[w].stop()
	}()
	joinEach(sns, inFlight, func(i int) *testHub { return alive[i%2] }, func(i int, err error) {
		answered.Add(1)
		if err != nil {
			t.Errorf("join at a surviving hub: %v", err)
			return
		}
		for _, th := range alive {
			if id := sns[i].tn.id.NodeID; !th.h.AccountReady(id) {
				t.Errorf("%s has not set up the account of %s when its join at %s answered", th.cfg.Name, id, alive[i%2].cfg.Name)
			}
		}
	})
	<-stopped
	if t.Failed() {
		t.FailNow()
	}
	if hubs[w].h != nil {
		t.Fatal("the writer was not stopped during the joins")
	}
	nw := writerOf(t, alive)
	// The new writer and the shards' new leaders re-source (each list
	// left out, then written again): read the lists once that is done.
	settledWrites(t, alive)
	sourced := sourcedNodes(t, alive[nw])
	for _, sn := range sns {
		if !slices.Contains(sourced, sn.tn.id.NodeID) {
			t.Fatalf("node %s is not among the aggregate's sources after its join answered", sn.tn.id.NodeID)
		}
	}
	want := map[string]bool{}
	for i, sn := range sns {
		sn.tn.url = "nats-leaf://" + alive[i%2].cfg.Leaf
		sn.tn.open(t)
		t.Cleanup(sn.tn.close)
		addAll(want, sn.tn.appendN(t, each))
	}
	for k, th := range alive {
		countsExactly(t, th, len(want), k)
	}
}

// TestCluster_AskHeldAcrossAnElection asks the writer for a re-sourcing
// while its writes are held, then moves the aggregate's lead to another
// hub and lets the old writer go on: it writes nothing once it no longer
// leads, the ask is answered by the new writer, and the node is sourced.
// The old writer used to make the write it was asked for whatever hub
// led by then, from its own copy of the registry: a list written after
// the new writer's could drop the sources of nodes joined meanwhile.
func TestCluster_AskHeldAcrossAnElection(t *testing.T) {
	hubs := newTestCluster(t)
	sn := inviteNode(t, hubs[0], "red")
	joinSoon(t, hubs[0], sn)
	w := writerOf(t, hubs)
	at := hubs[(w+1)%3]
	release := hubs[w].h.HoldSources()
	kicked := make(chan error, 1)
	go func() { kicked <- at.h.Kick(context.Background(), sn.tn.id.NodeID) }()
	deadline := time.Now().Add(wait)
	for hubs[w].h.KicksAsked() < 1 {
		if time.Now().After(deadline) {
			release()
			t.Fatalf("the writer holds no kick after %s", wait)
		}
		time.Sleep(10 * time.Millisecond)
	}
	nc, err := at.h.Connect()
	if err != nil {
		release()
		t.Fatal(err)
	}
	defer nc.Close()
	if _, err := nc.Request("$JS.API.STREAM.LEADER.STEPDOWN."+hubwire.AggregateStream, nil, wait); err != nil {
		release()
		t.Fatalf("step the aggregate's leader down: %v", err)
	}
	for hubs[w].h.Health(context.Background()).Writer {
		if time.Now().After(deadline) {
			release()
			t.Fatalf("hub %d still writes after its step down", w+1)
		}
		time.Sleep(10 * time.Millisecond)
	}
	before := sourceWrites(hubs)[w]
	release()
	if err := <-kicked; err != nil {
		t.Fatalf("kick at hub %d: %v", (w+1)%3+1, err)
	}
	if made := sourceWrites(hubs)[w] - before; made > 0 {
		t.Errorf("hub %d wrote the sources %d times after it lost the aggregate's lead", w+1, made)
	}
	// The new writer re-sources every node and shard (each list left
	// out, then written again): read the lists once that is done.
	settledWrites(t, hubs)
	nw := writerOf(t, hubs)
	if !slices.Contains(sourcedNodes(t, hubs[nw]), sn.tn.id.NodeID) {
		t.Errorf("node %s is not sourced after its kick", sn.tn.id.NodeID)
	}
}

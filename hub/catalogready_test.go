package hub_test

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// catalogRequests counts the JetStream API requests that create or
// update a team's catalog stream, sent by any hub of hubs.
type catalogRequests struct{ creates, updates atomic.Int64 }

// countCatalogRequests subscribes at every hub of hubs, in one queue
// group (each request counted once, by a subscriber on the server it
// was sent to), to the creations and updates of team's catalog stream.
func countCatalogRequests(t *testing.T, hubs []*testHub, team string) *catalogRequests {
	t.Helper()
	c := &catalogRequests{}
	for _, th := range hubs {
		nc, err := th.h.Connect()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(nc.Close)
		for verb, n := range map[string]*atomic.Int64{"CREATE": &c.creates, "UPDATE": &c.updates} {
			if _, err := nc.QueueSubscribe("$JS.API.STREAM."+verb+"."+hubwire.CatalogStream(team), "count", func(*nats.Msg) { n.Add(1) }); err != nil {
				t.Fatal(err)
			}
		}
		if err := nc.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	return c
}

// expectOne fails the test unless the catalog's stream was created by one
// request and never updated, and the hubs' health counts one creation
// and no failure.
func (c *catalogRequests) expectOne(t *testing.T, hubs []*testHub) {
	t.Helper()
	time.Sleep(200 * time.Millisecond) // a request counted late would still show
	if cr, up := c.creates.Load(), c.updates.Load(); cr != 1 || up != 0 {
		t.Errorf("the team's catalog stream was asked %d creations and %d updates, want 1 creation", cr, up)
	}
	var made uint64
	for i, th := range hubs {
		h := th.h.Health(context.Background())
		made += h.CatalogsMade
		if len(h.Catalogs) > 0 {
			t.Errorf("hub %d reports catalogs not made: %+v", i+1, h.Catalogs)
		}
	}
	if made != 1 {
		t.Errorf("the hubs' health counts %d catalogs made, want 1", made)
	}
}

// catalogThere fails the test unless team's catalog bucket is there, as
// js sees it.
func catalogThere(t *testing.T, js jetstream.JetStream, team, after string) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := js.KeyValue(ctx, hubwire.CatalogBucket(team)); err != nil {
		t.Errorf("the catalog of team %s %s: %v", team, after, err)
	}
}

// TestCatalogReady_MadeAtInvite invites 8 workspaces of a new team at
// once and joins each right after its invite: when an invite answers,
// the team's catalog is there, and it was created once, by one request,
// where each first join of a team used to create or update it.
func TestCatalogReady_MadeAtInvite(t *testing.T) {
	th := newTestHub(t)
	hubs := []*testHub{th}
	const team = "blue"
	reqs := countCatalogRequests(t, hubs, team)
	js := hubJetStream(t, th)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			sn := inviteNodeErr(t, th, team)
			catalogThere(t, js, team, "when its invite answers")
			if err := joinAt(th, sn); err != nil {
				t.Errorf("join: %v", err)
			}
		})
	}
	wg.Wait()
	reqs.expectOne(t, hubs)
}

// TestCluster_CatalogReadyAtInvite invites 9 workspaces of a new team at
// once, 3 at each hub of a cluster, and joins each at once at the next
// hub: when an invite answers the team's catalog is there, the joins
// (which race the other hubs' look for it) find it, and the cluster
// created it with one request, at its writer.
func TestCluster_CatalogReadyAtInvite(t *testing.T) {
	hubs := newTestCluster(t)
	const team = "teal"
	reqs := countCatalogRequests(t, hubs, team)
	jss := make([]jetstream.JetStream, len(hubs))
	for i, th := range hubs {
		jss[i] = hubJetStream(t, th)
	}
	sns := make([]*stormNode, 9)
	var wg sync.WaitGroup
	for i := range sns {
		wg.Go(func() {
			sns[i] = inviteNodeErr(t, hubs[i%3], team)
			catalogThere(t, jss[i%3], team, "when its invite answers")
		})
	}
	wg.Wait()
	joinEach(sns, len(sns), func(i int) *testHub { return hubs[(i+1)%3] }, func(i int, err error) {
		if err != nil {
			t.Errorf("join at hub %d: %v", (i+1)%3+1, err)
		}
		catalogThere(t, jss[(i+1)%3], team, "when a join answers")
	})
	reqs.expectOne(t, hubs)
}

// TestCatalogReady_FailureRetriedAndReported takes the name of a new
// team's catalog stream with a stream that is not a catalog: the invite
// answers all the same, the health names the team with the error, the
// stream in the way is left as it was (never updated), and once it is
// gone the hub makes the catalog by itself and the health is clear.
func TestCatalogReady_FailureRetriedAndReported(t *testing.T) {
	th := newTestHub(t)
	const team = "pink"
	reqs := countCatalogRequests(t, []*testHub{th}, team)
	js := hubJetStream(t, th)
	ctx := context.Background()
	other := jetstream.StreamConfig{Name: hubwire.CatalogStream(team), Subjects: []string{"elsewhere.pink"}}
	if _, err := js.CreateStream(ctx, other); err != nil {
		t.Fatal(err)
	}
	sn := inviteNode(t, th, team)
	h := th.h.Health(ctx)
	if len(h.Catalogs) != 1 || h.Catalogs[0].Team != team || h.Catalogs[0].Attempts < 1 || !strings.Contains(h.Catalogs[0].Error, "not valid key-value") {
		t.Fatalf("health's catalogs %+v: want team %s with its stream not a key-value bucket", h.Catalogs, team)
	}
	time.Sleep(time.Second) // tried again meanwhile
	if h := th.h.Health(ctx); len(h.Catalogs) != 1 || h.Catalogs[0].Attempts < 2 {
		t.Errorf("health's catalogs %+v: want the creation tried again", h.Catalogs)
	}
	st, err := js.Stream(ctx, other.Name)
	if err != nil {
		t.Fatal(err)
	}
	if got := st.CachedInfo().Config.Subjects; len(got) != 1 || got[0] != "elsewhere.pink" || reqs.updates.Load() != 0 {
		t.Fatalf("the stream in the way has subjects %v after %d updates: want it left as it was", got, reqs.updates.Load())
	}
	if err := js.DeleteStream(ctx, other.Name); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		h := th.h.Health(ctx)
		if len(h.Catalogs) == 0 && h.CatalogsMade == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the catalog not made 30 s after its name was freed: health %+v", h)
		}
		time.Sleep(100 * time.Millisecond)
	}
	kv, err := js.KeyValue(ctx, hubwire.CatalogBucket(team))
	if err != nil {
		t.Fatal(err)
	}
	if st, err := kv.Status(ctx); err != nil || st.History() != 64 {
		t.Fatalf("the catalog made: history %v, %v; want 64", st, err)
	}
	if err := joinAt(th, sn); err != nil {
		t.Fatal(err)
	}
}

// TestCatalogReady_FoundAtStart restarts a hub whose registry holds
// invites of three teams: the hub looks for each team's catalog at start
// (one making per team: all three once shared the last one's, which then
// ended twice and took the hub down), finds all three and creates none,
// and the invites' joins answer.
func TestCatalogReady_FoundAtStart(t *testing.T) {
	th := newTestHub(t)
	teams := []string{"red", "green", "blue"}
	var sns []*stormNode
	for _, team := range teams {
		sns = append(sns, inviteNode(t, th, team))
	}
	if made := th.h.Health(context.Background()).CatalogsMade; made != 3 {
		t.Fatalf("the hub made %d catalogs for 3 new teams, want 3", made)
	}
	th.stop()
	th.start(t)
	for _, sn := range sns {
		if err := joinAt(th, sn); err != nil {
			t.Fatal(err)
		}
	}
	h := th.h.Health(context.Background())
	if h.CatalogsMade != 0 || len(h.Catalogs) > 0 {
		t.Fatalf("after the restart the hub made %d catalogs and reports %+v, want none made (all found) and none failing", h.CatalogsMade, h.Catalogs)
	}
	js := hubJetStream(t, th)
	for _, team := range teams {
		catalogThere(t, js, team, "after the restart")
	}
}

package hub_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/clumsies/clumsies/hub"
)

// newTestCluster starts three hubs routed as one cluster. A free port may
// be taken by another process before its hub listens, and a cluster whose
// JetStream does not come up is made again on other ports.
func newTestCluster(t *testing.T) []*testHub {
	t.Helper()
	return newTestClusterLogged(t, testLogger())
}

// newTestClusterLogged is newTestCluster with the hubs logging to logger.
func newTestClusterLogged(t *testing.T, logger *slog.Logger) []*testHub {
	t.Helper()
	var err error
	for range 3 {
		var hubs []*testHub
		if hubs, err = tryTestCluster(t, logger); err == nil {
			return hubs
		}
		t.Logf("the cluster did not come up, trying other ports: %v", err)
	}
	t.Fatalf("start the cluster: %v", err)
	return nil
}

func tryTestCluster(t *testing.T, logger *slog.Logger) ([]*testHub, error) {
	t.Helper()
	routes := []string{}
	for range 3 {
		routes = append(routes, "127.0.0.1:"+strconv.Itoa(freePort(t)))
	}
	hubs := make([]*testHub, 3)
	for i := range hubs {
		var others []string
		for j, r := range routes {
			if j != i {
				others = append(others, "nats-route://"+r)
			}
		}
		dir := t.TempDir()
		_, err := hub.Init(dir, hub.Config{Name: fmt.Sprintf("hub-%d", i+1), Data: "data",
			Leaf: "127.0.0.1:" + strconv.Itoa(freePort(t)), HTTP: "127.0.0.1:" + strconv.Itoa(freePort(t)),
			Cluster: hub.ClusterConfig{Name: "test", Listen: routes[i], Routes: others}})
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := hub.ReadConfig(dir)
		if err != nil {
			t.Fatal(err)
		}
		cfg.SetShardSize(testShardSize)
		hubs[i] = &testHub{dir: dir, cfg: cfg}
	}
	var wg sync.WaitGroup
	errs := make([]error, 3)
	for i, th := range hubs {
		wg.Go(func() {
			l := logger
			if l != nil {
				l = l.With("hub", th.cfg.Name)
			}
			h, err := hub.Start(context.Background(), th.cfg, l)
			th.h, errs[i] = h, err
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		for _, th := range hubs {
			th.stop()
		}
		return nil, err
	}
	for _, th := range hubs {
		t.Cleanup(th.stop)
	}
	return hubs, nil
}

// TestCluster_JoinKnownEverywhere joins nodes at one hub of a cluster and
// links each at once to another: when a join answers, every hub has set
// up the node's account (a hub that hears of a link before it knows its
// account drops the link's interest for good: nats-server#8560), and every
// node's events reach the aggregate once.
func TestCluster_JoinKnownEverywhere(t *testing.T) {
	hubs := newTestCluster(t)
	want := map[string]bool{}
	for i := range 3 {
		sn := inviteNode(t, hubs[0], "red")
		joinSoon(t, hubs[0], sn)
		for k, th := range hubs {
			if !th.h.AccountReady(sn.tn.id.NodeID) {
				t.Fatalf("hub %d has not set up the account of %s when its join answered", k+1, sn.tn.id.NodeID)
			}
		}
		other := hubs[1+i%2]
		sn.tn.url = "nats-leaf://" + other.cfg.Leaf
		sn.tn.open(t)
		t.Cleanup(sn.tn.close)
		addAll(want, sn.tn.appendN(t, 5))
	}
	// Every hub counts every event once, wherever the node linked.
	for k, th := range hubs {
		waitStats(t, fmt.Sprintf("hub %d", k+1), th, len(want), wait)
	}
}

// joinSoon joins sn at th. A read of the registry's bucket may be served
// by a replica that has not stored the invite just made yet: a join
// refused for its token is asked again for a few seconds.
func joinSoon(t *testing.T, th *testHub, sn *stormNode) {
	t.Helper()
	pub, _ := sn.tn.id.PublicKey()
	deadline := time.Now().Add(5 * time.Second)
	for {
		_, err := th.h.Join(context.Background(), sn.secret, sn.tn.id.NodeID, pub, sn.tn.ws.ID(), "")
		if err == nil {
			return
		}
		if !errors.Is(err, hub.ErrBadInvite) || time.Now().After(deadline) {
			t.Fatalf("join: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

package hub_test

import (
	"context"
	"errors"
	"net/url"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"

	"github.com/clumsies/clumsies/hub/hubwire"
	"github.com/clumsies/clumsies/hublink"
)

// rogueLeaf starts a plain nats-server (no JetStream, no rules) that dials
// the hub as a leaf with seed, as a modified node could, and returns a
// client of it.
func rogueLeaf(tb testing.TB, th *testHub, seed string) (*server.Server, *nats.Conn) {
	tb.Helper()
	u, _ := url.Parse("nats-leaf://" + th.cfg.Leaf)
	o := &server.Options{ServerName: "rogue", DontListen: true, NoSigs: true,
		LeafNode: server.LeafNodeOpts{ReconnectInterval: 100 * time.Millisecond,
			Remotes: []*server.RemoteLeafOpts{{URLs: []*url.URL{u}, Nkey: seed}}}}
	ns, err := server.NewServer(o)
	if err != nil {
		tb.Fatal(err)
	}
	ns.Start()
	if !ns.ReadyForConnections(10 * time.Second) {
		tb.Fatal("rogue server not ready")
	}
	tb.Cleanup(ns.Shutdown)
	nc, err := nats.Connect(ns.ClientURL(), nats.InProcessServer(ns))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(nc.Close)
	return ns, nc
}

// waitLeaf waits until ns has n leaf links up.
func waitLeaf(tb testing.TB, ns *server.Server, n int) {
	tb.Helper()
	deadline := time.Now().Add(wait)
	for ns.NumLeafNodes() != n {
		if time.Now().After(deadline) {
			tb.Fatalf("%d leaf links after %s, want %d", ns.NumLeafNodes(), wait, n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// noAnswer checks that a request on subj gets no answer.
func noAnswer(t *testing.T, nc *nats.Conn, subj string) {
	t.Helper()
	msg, err := nc.Request(subj, []byte("{}"), 500*time.Millisecond)
	if err == nil {
		t.Fatalf("request on %s was answered: %s", subj, msg.Data)
	}
	if !errors.Is(err, nats.ErrNoResponders) && !errors.Is(err, nats.ErrTimeout) {
		t.Fatalf("request on %s: %v", subj, err)
	}
}

// TestIsolation_ANodesCredentials checks, with a rogue leaf server using
// node A's key and a NATS client on it, that A reaches nothing but its own
// link: not B's deliveries or API, not the hub's JetStream API, not the
// aggregate; and that what it publishes on B's subjects is not taken.
func TestIsolation_ANodesCredentials(t *testing.T) {
	th := newTestHub(t)
	a := joinNode(t, th, "red", "")
	b := joinNode(t, th, "blue", "")
	a.close() // the rogue takes A's place
	ns, rogue := rogueLeaf(t, th, a.id.Seed)
	waitLeaf(t, ns, 1)

	sub, err := rogue.SubscribeSync(">")
	if err != nil {
		t.Fatal(err)
	}
	rogue.Flush()
	want := map[string]bool{}
	addAll(want, b.appendN(t, 20))
	waitAggregate(t, th, 20)

	t.Run("SeesNoneOfBsEvents", func(t *testing.T) {
		for {
			msg, err := sub.NextMsg(300 * time.Millisecond)
			if err != nil {
				break
			}
			if len(msg.Subject) >= 8 && msg.Subject[:8] == "deliver." || msg.Header.Get(nats.MsgIdHdr) != "" {
				t.Fatalf("node A's key received %s", msg.Subject)
			}
		}
	})
	t.Run("ReachesNoJetStreamAPI", func(t *testing.T) {
		for _, subj := range []string{
			"$JS.API.INFO", "$JS.hub.API.INFO", "$JS.hub.API.STREAM.INFO." + hubwire.AggregateStream,
			"$JS.API.STREAM.INFO." + hubwire.AggregateStream,
			"$JS." + b.id.NodeID + ".API.STREAM.INFO.CLUMSIES_" + b.ws.ID(),
			"$JS." + b.id.NodeID + ".API.INFO",
		} {
			noAnswer(t, rogue, subj)
		}
	})
	t.Run("CannotPublishAsB", func(t *testing.T) {
		for i := range 10 {
			m := nats.NewMsg("deliver." + b.id.NodeID + ".S.forged")
			m.Header.Set(nats.MsgIdHdr, "forged-"+string(rune('a'+i)))
			m.Data = []byte(`{"v":1}`)
			rogue.PublishMsg(m)
		}
		rogue.Flush()
		addAll(want, b.appendN(t, 5))
		checkExactly(t, th, want)
	})
}

// TestIsolation_WrongAndRevokedKeys checks that a node with an unknown key
// and a revoked node are refused at the hub, while their workspaces keep
// appending locally.
func TestIsolation_WrongAndRevokedKeys(t *testing.T) {
	th := newTestHub(t)
	good := joinNode(t, th, "red", "")
	wrong := joinNode(t, th, "red", "")
	wrong.close()
	// The hub's link watcher polls the leaf links: wait until it has seen
	// the first link (made with the right key) go, or it still shows it.
	deadline := time.Now().Add(wait)
	for th.h.Link(wrong.id.NodeID).Up {
		if time.Now().After(deadline) {
			t.Fatal("the hub still shows the closed node's link")
		}
		time.Sleep(20 * time.Millisecond)
	}
	fresh, err := hublink.NewIdentity()
	if err != nil {
		t.Fatal(err)
	}
	wrong.id.Seed = fresh.Seed // the registered id, a key the hub does not know
	wrong.open(t)
	want := map[string]bool{}
	addAll(want, good.appendN(t, 10))
	if got := len(wrong.appendN(t, 10)); got != 10 {
		t.Fatalf("the workspace with a wrong key appended %d of 10", got)
	}
	checkExactly(t, th, want)
	time.Sleep(500 * time.Millisecond) // several polls of the link watcher
	if th.h.Link(wrong.id.NodeID).Up {
		t.Fatal("the hub shows a link for a node with a wrong key")
	}

	if _, err := th.h.Revoke(context.Background(), good.id.NodeID); err != nil {
		t.Fatal(err)
	}
	deadline = time.Now().Add(wait)
	for good.n.NATS.NATS().NumLeafNodes() != 0 {
		if time.Now().After(deadline) {
			t.Fatal("the revoked node's link is still up")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if got := len(good.appendN(t, 10)); got != 10 {
		t.Fatalf("the revoked workspace appended %d of 10", got)
	}
	time.Sleep(time.Second) // give a wrongly admitted link time to deliver
	checkExactly(t, th, want)
	if good.n.NATS.NATS().NumLeafNodes() != 0 {
		t.Fatal("the revoked node linked again")
	}
}

package hub

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// TestRegistryWatch_DeliversWhatWasWrittenBeforeIt: another hub's
// writes made after this hub read its copy (attach) and before its watch
// started, or while its watch was down, reach the copy once the watch
// (re)starts; a hub's watch started with the changes to come only
// (UpdatesOnly) never received them, and a join whose writer's copy
// lacked its node failed. The entries the copy holds already call
// nothing.
func TestRegistryWatch_DeliversWhatWasWrittenBeforeIt(t *testing.T) {
	ctx := context.Background()
	r := testRegistry(t)
	elsewhere := func(id string) { putElsewhere(t, r, id) }
	if err := r.put(ctx, keyNodePrefix+"n-held", hubwire.Node{ID: "n-held", Team: "red"}); err != nil {
		t.Fatal(err)
	}
	var changes atomic.Int32
	follow := func() (stop func()) {
		wctx, cancel := context.WithCancel(ctx)
		done := make(chan error, 1)
		go func() { done <- r.watch(wctx, func(string) { changes.Add(1) }) }()
		return func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("the watch: %v", err)
			}
		}
	}
	arrives := func(id string) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
			if _, ok := r.node(id); ok {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("node %s, written to the bucket, is not in the copy after 10 s", id)
			}
		}
	}

	elsewhere("n-before") // after attach, before the watch
	stop := follow()
	arrives("n-before")
	elsewhere("n-during")
	arrives("n-during")
	stop()
	elsewhere("n-down") // while the watch is down
	stop = follow()
	arrives("n-down")
	stop()
	if got := changes.Load(); got != 3 {
		t.Errorf("%d changes called, want 3 (n-before, n-during, n-down; not the entries the copy held)", got)
	}
}

// testJetStream is a JetStream of a real embedded nats-server, closed
// with the test.
func testJetStream(t *testing.T) jetstream.JetStream {
	t.Helper()
	s, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: -1, JetStream: true, StoreDir: t.TempDir(), NoLog: true, NoSigs: true})
	if err != nil {
		t.Fatal(err)
	}
	s.Start()
	t.Cleanup(s.Shutdown)
	if !s.ReadyForConnections(10 * time.Second) {
		t.Fatal("nats-server not ready")
	}
	nc, err := nats.Connect(s.ClientURL())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	return js
}

// TestRegistry_CatchUpReadsTheLeader: a node another hub wrote, which
// the copy does not hold (no watch delivered it), is read from the
// registry's leader into the copy; a node the copy holds as the leader
// does, or that the leader does not hold, changes nothing.
func TestRegistry_CatchUpReadsTheLeader(t *testing.T) {
	ctx := context.Background()
	r := testRegistry(t)
	putElsewhere(t, r, "n-lagged")
	if _, ok := r.node("n-lagged"); ok {
		t.Fatal("the copy holds a node written to the bucket only, without a watch")
	}
	applied, err := r.catchUp(ctx, []string{"n-lagged", "n-unknown"})
	if err != nil || !applied {
		t.Fatalf("catch up a lagging copy: applied %v, %v; want applied", applied, err)
	}
	if n, ok := r.node("n-lagged"); !ok || n.Team != "red" {
		t.Fatalf("after catching up, the copy holds n-lagged: %v (%+v)", ok, n)
	}
	if _, ok := r.node("n-unknown"); ok {
		t.Fatal("the copy holds a node the leader does not")
	}
	if applied, err := r.catchUp(ctx, []string{"n-lagged"}); err != nil || applied {
		t.Fatalf("catch up a copy that holds the node: applied %v, %v; want nothing applied", applied, err)
	}
}

// testRegistry is a registry attached to a bucket of a real embedded
// nats-server.
func testRegistry(t *testing.T) *registry {
	t.Helper()
	r, err := openRegistry(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = r.close() })
	if _, err := r.attach(context.Background(), testJetStream(t), 1); err != nil {
		t.Fatal(err)
	}
	return r
}

// putElsewhere writes node id to r's bucket only, as another hub of a
// cluster does: r's copy holds it once its watch delivers it.
func putElsewhere(t *testing.T, r *registry, id string) {
	t.Helper()
	b, _ := json.Marshal(hubwire.Node{ID: id, PublicKey: "U" + id, Team: "red", Workspace: "ws-" + id, Joined: time.Now().UTC()})
	if _, err := r.kv.Put(context.Background(), keyNodePrefix+id, b); err != nil {
		t.Fatal(err)
	}
}

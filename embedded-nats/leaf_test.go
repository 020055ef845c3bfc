package embeddednats

import (
	"context"
	"errors"
	"fmt"
	"net"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nkeys"
)

// openHub starts a plain nats-server with a leaf listener and no rules:
// a hub that would reach anything the workspace's link let through.
func openHub(tb testing.TB) (*server.Server, *nats.Conn, int) {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	o := &server.Options{ServerName: "hub", DontListen: true, NoSigs: true,
		LeafNode: server.LeafNodeOpts{Host: "127.0.0.1", Port: port}}
	ns, err := server.NewServer(o)
	if err != nil {
		tb.Fatal(err)
	}
	ns.Start()
	if !ns.ReadyForConnections(10 * time.Second) {
		tb.Fatal("hub not ready")
	}
	tb.Cleanup(ns.Shutdown)
	nc, err := nats.Connect(ns.ClientURL(), nats.InProcessServer(ns))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(nc.Close)
	return ns, nc, port
}

// TestServer_LeafDenies links a workspace server to a hub that has no
// rules of its own and checks, with a client at the hub, that the link
// keeps the workspace's ledger subjects and read service out of the hub's
// reach and lets through no JetStream request that changes or removes a
// stream, while reads of the stream pass.
func TestServer_LeafDenies(t *testing.T) {
	hubNS, hub, port := openHub(t)
	kp, _ := nkeys.CreateUser()
	seed, _ := kp.Seed()
	const domain = "n-0123456789abcdef"
	s := startServer(t, &Server{Dir: t.TempDir(), Domain: domain,
		Leaf: &Leaf{URL: fmt.Sprintf("nats-leaf://127.0.0.1:%d", port), Seed: string(seed)}})
	owner := connect(t, s)
	publishN(t, owner, 3)
	deadline := time.Now().Add(30 * time.Second)
	for hubNS.NumLeafNodes() != 1 {
		if time.Now().After(deadline) {
			t.Fatal("the workspace did not link to the hub")
		}
		time.Sleep(20 * time.Millisecond)
	}
	// The workspace's private responders.
	for _, subj := range []string{"clumsiesrpc.ws-x.stats", "clumsies.ws-x.attest.refer"} {
		if _, err := owner.Subscribe(subj, func(m *nats.Msg) { m.Respond([]byte("leaked")) }); err != nil {
			t.Fatal(err)
		}
	}
	owner.Flush()
	time.Sleep(200 * time.Millisecond) // let interest travel, were it allowed to

	noAnswer := func(t *testing.T, subj string) {
		t.Helper()
		msg, err := hub.Request(subj, []byte("{}"), 500*time.Millisecond)
		if err == nil {
			t.Fatalf("the hub got an answer on %s: %s", subj, msg.Data)
		}
		if !errors.Is(err, nats.ErrNoResponders) && !errors.Is(err, nats.ErrTimeout) {
			t.Fatalf("request %s: %v", subj, err)
		}
	}
	t.Run("NoReadService", func(t *testing.T) { noAnswer(t, "clumsiesrpc.ws-x.stats") })
	t.Run("NoLedgerSubjects", func(t *testing.T) { noAnswer(t, "clumsies.ws-x.attest.refer") })
	t.Run("NoStreamChanges", func(t *testing.T) {
		for _, op := range []string{"STREAM.DELETE.", "STREAM.PURGE.", "STREAM.UPDATE.", "STREAM.MSG.DELETE."} {
			noAnswer(t, "$JS."+domain+".API."+op+testStream)
		}
		if got := streamMsgs(t, owner); got != 3 {
			t.Fatalf("stream holds %d messages, want 3", got)
		}
	})
	t.Run("ReadsPass", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		msg, err := hub.RequestWithContext(ctx, "$JS."+domain+".API.STREAM.INFO."+testStream, nil)
		if err != nil {
			t.Fatalf("the hub could not read stream info: %v", err)
		}
		if len(msg.Data) == 0 || string(msg.Data[:1]) != "{" {
			t.Fatalf("stream info: %s", msg.Data)
		}
	})
}

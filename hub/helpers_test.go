package hub_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/hub"
	"github.com/clumsies/clumsies/hub/hubwire"
	"github.com/clumsies/clumsies/hublink"
	"github.com/clumsies/clumsies/node"
	"github.com/clumsies/clumsies/workspace"
)

// testShardSize is the shard size of the tests' hubs: a few nodes, so
// that every test with more nodes runs over several shards.
const testShardSize = 3

// wait bounds every wait on a condition: generous, for a loaded machine.
var wait = 60 * time.Second

// freePort returns a loopback port nobody listens on right now, picked
// below the system's range of ephemeral ports when it can be: the tests
// stop hubs and start them again on the same ports, and a port of the
// ephemeral range may meanwhile be the local end of any outgoing
// connection (a node redialing, an HTTP client), which a port below the
// range never is.
func freePort(tb testing.TB) int {
	tb.Helper()
	if lo := ephemeralLow(); lo > 10000 {
		for range 50 {
			port := 10000 + rand.IntN(lo-10000)
			if ln, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port)); err == nil {
				ln.Close()
				return port
			}
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// ephemeralLow returns the first port of the system's ephemeral range,
// or 0 where the system does not say.
func ephemeralLow() int {
	b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) != 2 {
		return 0
	}
	lo, err := strconv.Atoi(f[0])
	if err != nil {
		return 0
	}
	return lo
}

// testHub is a hub folder whose hub can be started and stopped.
type testHub struct {
	dir string
	cfg *hub.Config
	h   *hub.Hub
}

func newTestHub(tb testing.TB) *testHub {
	tb.Helper()
	dir := tb.TempDir()
	_, err := hub.Init(dir, hub.Config{Name: "test-hub", Data: "data",
		Leaf: "127.0.0.1:" + strconv.Itoa(freePort(tb)), HTTP: "127.0.0.1:" + strconv.Itoa(freePort(tb))})
	if err != nil {
		tb.Fatal(err)
	}
	cfg, err := hub.ReadConfig(dir)
	if err != nil {
		tb.Fatal(err)
	}
	cfg.SetShardSize(testShardSize)
	th := &testHub{dir: dir, cfg: cfg}
	th.start(tb)
	tb.Cleanup(th.stop)
	return th
}

func (th *testHub) start(tb testing.TB) {
	tb.Helper()
	var logger *slog.Logger
	if os.Getenv("HUB_TEST_LOG") != "" {
		logger = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	}
	h, err := hub.Start(context.Background(), th.cfg, logger)
	if err != nil {
		tb.Fatalf("start the hub: %v", err)
	}
	th.h = h
}

func (th *testHub) stop() {
	if th.h != nil {
		th.h.Close()
		th.h = nil
	}
}

// testNode is one clone of a workspace joined to the hub, opened as its
// owner with the leaf link.
type testNode struct {
	ws  *workspace.Workspace
	id  hublink.Identity
	url string
	n   *node.Node
}

// joinNode makes a workspace clone in dir (a new workspace unless wsID is
// set), joins it to th's hub as a member of team and opens it.
func joinNode(tb testing.TB, th *testHub, team, wsID string) *testNode {
	tb.Helper()
	root := filepath.Join(tb.TempDir(), "repo")
	ws, _, err := workspace.Init(root)
	if err != nil {
		tb.Fatal(err)
	}
	if wsID != "" {
		ws.Config.WorkspaceID = wsID
	}
	id, err := hublink.NewIdentity()
	if err != nil {
		tb.Fatal(err)
	}
	token, err := th.h.Invite(context.Background(), ws.ID(), team, "alice")
	if err != nil {
		tb.Fatal(err)
	}
	jt, err := hubwire.ParseJoinToken(token)
	if err != nil {
		tb.Fatal(err)
	}
	pub, _ := id.PublicKey()
	if _, err := th.h.Join(context.Background(), jt.Secret, id.NodeID, pub, ws.ID(), ""); err != nil {
		tb.Fatalf("join: %v", err)
	}
	tn := &testNode{ws: ws, id: id, url: jt.Leaf}
	tn.open(tb)
	tb.Cleanup(tn.close)
	return tn
}

func (tn *testNode) open(tb testing.TB) {
	tb.Helper()
	link, err := hublink.New(tn.id, tn.url)
	if err != nil {
		tb.Fatal(err)
	}
	n, err := node.Open(context.Background(), tn.ws, node.Options{Link: link, Sync: 1, Logger: testLogger()})
	if err != nil {
		tb.Fatalf("open the workspace: %v", err)
	}
	tn.n = n
}

func (tn *testNode) close() {
	if tn.n != nil {
		tn.n.Close()
		tn.n = nil
	}
}

// appendN appends n events to the node's ledger and returns their ids.
func (tn *testNode) appendN(tb testing.TB, n int) []string {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	ids := make([]string, 0, n)
	for i := range n {
		ev, err := events.New(tn.ws.ID(), events.TypeAgentReport, events.AgentReportData{Summary: fmt.Sprintf("report %d", i)})
		if err != nil {
			tb.Fatal(err)
		}
		ev.SessionID = "s-1"
		if _, err := tn.n.Log.Append(ctx, ev); err != nil {
			tb.Fatalf("append: %v", err)
		}
		ids = append(ids, ev.ID)
	}
	return ids
}

// aggregate counts the aggregate's messages per Nats-Msg-Id; it fails
// the test on a duplicate.
func aggregate(tb testing.TB, th *testHub) map[string]string {
	tb.Helper()
	nc, err := th.h.Connect()
	if err != nil {
		tb.Fatal(err)
	}
	defer nc.Close()
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	js, _ := jetstream.New(nc)
	var st jetstream.Stream
	var info *jetstream.StreamInfo
	for attempt := 0; ; attempt++ {
		st, err = js.Stream(ctx, hubwire.AggregateStream)
		if err == nil {
			info, err = st.Info(ctx)
		}
		if err == nil {
			break
		}
		if attempt == 10 || !errors.Is(err, nats.ErrNoResponders) {
			tb.Fatalf("read the aggregate: %v", err)
		}
		time.Sleep(100 * time.Millisecond) // a JetStream request can go unanswered for a moment
	}
	got := map[string]string{}
	if info.State.Msgs == 0 {
		return got
	}
	cons, err := st.OrderedConsumer(ctx, jetstream.OrderedConsumerConfig{})
	if err != nil {
		tb.Fatal(err)
	}
	for uint64(len(got)) < info.State.Msgs {
		msg, err := cons.Next(jetstream.FetchMaxWait(10 * time.Second))
		if err != nil {
			tb.Fatalf("read the aggregate: %v", err)
		}
		id := msg.Headers().Get(nats.MsgIdHdr)
		if _, dup := got[id]; dup {
			tb.Fatalf("event %s is twice in the aggregate", id)
		}
		got[id] = msg.Subject()
	}
	return got
}

// waitAggregate waits until the aggregate holds want messages.
func waitAggregate(tb testing.TB, th *testHub, want int) {
	tb.Helper()
	nc, err := th.h.Connect()
	if err != nil {
		tb.Fatal(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	deadline := time.Now().Add(wait)
	var have uint64
	for time.Now().Before(deadline) {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		st, err := js.Stream(ctx, hubwire.AggregateStream)
		if err == nil {
			var info *jetstream.StreamInfo
			if info, err = st.Info(ctx); err == nil {
				have = info.State.Msgs
			}
		}
		cancel()
		// A JetStream request can go unanswered for a moment: ask again.
		if err != nil && !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, nats.ErrNoResponders) {
			tb.Fatalf("read the aggregate: %v", err)
		}
		if have >= uint64(want) {
			if have > uint64(want) {
				tb.Fatalf("the aggregate holds %d messages, want %d", have, want)
			}
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	tb.Fatalf("the aggregate holds %d messages after %s, want %d", have, wait, want)
}

func testLogger() *slog.Logger {
	if os.Getenv("HUB_TEST_LOG") == "" {
		return nil
	}
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
}

// hubJetStream returns JetStream on a connection to th's hub, closed when
// the test ends.
func hubJetStream(tb testing.TB, th *testHub) jetstream.JetStream {
	tb.Helper()
	nc, err := th.h.Connect()
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		tb.Fatal(err)
	}
	return js
}

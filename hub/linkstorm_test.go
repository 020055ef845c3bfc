package hub_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	embeddednats "github.com/clumsies/clumsies/embedded-nats"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/events/natsjs"
	"github.com/clumsies/clumsies/hub"
)

// stormCatchUp bounds the catch-up of TestLinkStorm_LedgerAfterKick once
// every node's ledger exists. Without the hub kicking again, a source
// whose node refused its consumer three times waits 30 s more in nats-server's
// backoff (10 s per failure; 30 s after the third), so the bound is well
// above what the kicks take (a kick every 4 s at most) and well below
// that.
const stormCatchUp = 15 * time.Second

// rawNode is a node's server with its leaf link up and its ledger stream
// made only when the test says so, like a fresh workspace whose owner
// dialed the hub before it opened its ledger.
type rawNode struct {
	sn  *stormNode
	srv *embeddednats.Server
	nc  *nats.Conn
	// asks counts the hub's requests for a sourcing consumer on the
	// node's ledger.
	asks atomic.Int64
}

func (rn *rawNode) start(t *testing.T) {
	t.Helper()
	leaf, err := rn.sn.tn.id.Leaf(rn.sn.tn.url)
	if err != nil {
		t.Fatal(err)
	}
	leaf.Quiet = true
	rn.srv = &embeddednats.Server{Dir: t.TempDir(), Sync: embeddednats.SyncInterval, MaxStore: 64 << 20, Domain: rn.sn.tn.id.NodeID, Leaf: leaf}
	if err := rn.srv.Start(); err != nil {
		t.Fatal(err)
	}
	if rn.nc, err = rn.srv.Connect(nats.Timeout(time.Minute)); err != nil {
		t.Fatal(err)
	}
	// The hub's requests arrive on the plain API subjects (the server of
	// a JetStream domain maps its domain's API onto them).
	if _, err := rn.nc.Subscribe("$JS.API.CONSUMER.CREATE.>", func(*nats.Msg) { rn.asks.Add(1) }); err != nil {
		t.Fatal(err)
	}
	if err := rn.nc.Flush(); err != nil {
		t.Fatal(err)
	}
}

func (rn *rawNode) close() {
	if rn.nc != nil {
		rn.nc.Close()
	}
	if rn.srv != nil {
		_ = rn.srv.Close()
	}
}

// appendLedger makes the node's ledger stream and appends n events; it
// returns their ids.
func (rn *rawNode) appendLedger(ctx context.Context, n int) ([]string, error) {
	ws := rn.sn.tn.ws.ID()
	log, err := natsjs.Open(ctx, rn.nc, ws, natsjs.Options{})
	if err != nil {
		return nil, fmt.Errorf("open the ledger of %s: %w", rn.sn.tn.id.NodeID, err)
	}
	var ids []string
	for i := range n {
		ev, err := events.New(ws, events.TypeAgentReport, events.AgentReportData{Summary: fmt.Sprintf("report %d", i)})
		if err != nil {
			return nil, err
		}
		ev.SessionID = "s-1"
		if _, err := log.Append(ctx, ev); err != nil {
			return nil, fmt.Errorf("append at %s: %w", rn.sn.tn.id.NodeID, err)
		}
		ids = append(ids, ev.ID)
	}
	return ids, nil
}

// TestLinkStorm_LedgerAfterKick links 24 registered nodes at once to a
// hub that restarted, each asked by the hub for its ledger before the
// ledger exists (the kick at link-up fails, as at a fresh node whose
// owner dialed before it made its ledger, or a request lost in a storm of
// links). Once each node was asked three times, every ledger is made and
// appended to: the hub counts every event within stormCatchUp. Before
// the hub kicked a source again when the node did not answer, the
// failed kick left each source in nats-server's retry backoff (10 s,
// 20 s, 30 s ... between attempts): the storm's events took 51 s at 200
// nodes.
func TestLinkStorm_LedgerAfterKick(t *testing.T) {
	const nodes, each, asked = 24, 5, 3
	th := newTestHub(t)
	sns := make([]*stormNode, nodes)
	for i := range sns {
		sns[i] = inviteNode(t, th, "red")
	}
	joinAll(t, th, sns)
	th.stop()
	th.start(t)

	rns := make([]*rawNode, nodes)
	for i, sn := range sns {
		rns[i] = &rawNode{sn: sn}
		t.Cleanup(rns[i].close)
	}
	var wg sync.WaitGroup
	for _, rn := range rns {
		wg.Go(func() { rn.start(t) })
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	// Every node linked and asked for its ledger at least `asked` times.
	deadline := time.Now().Add(wait)
	for {
		short := 0
		for _, rn := range rns {
			if !rn.srv.Linked() || rn.asks.Load() < asked {
				short++
			}
		}
		if short == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d nodes not linked or asked for their ledger fewer than %d times within %s", short, nodes, asked, wait)
		}
		time.Sleep(50 * time.Millisecond)
	}

	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	errs := make([]error, nodes)
	for i, rn := range rns {
		wg.Go(func() { _, errs[i] = rn.appendLedger(ctx, each) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	made := time.Now()
	var counted uint64
	for time.Since(made) < stormCatchUp {
		st, err := th.h.Stats(hub.Query{Days: 2})
		if err != nil {
			t.Fatal(err)
		}
		if counted = st.Totals.Events; counted >= nodes*each {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if counted != nodes*each {
		var asks []int64
		for _, rn := range rns {
			asks = append(asks, rn.asks.Load())
		}
		t.Fatalf("the hub counts %d of %d events %s after every ledger was made (requests for a consumer per node: %v)", counted, nodes*each, stormCatchUp, asks)
	}
}

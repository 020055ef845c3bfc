package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	embeddednats "github.com/clumsies/clumsies/embedded-nats"
	"github.com/clumsies/clumsies/hub"
	"github.com/clumsies/clumsies/hub/hubwire"
	"github.com/clumsies/clumsies/hublink"
	"github.com/clumsies/clumsies/node"
	"github.com/clumsies/clumsies/workspace"
)

// benchHub measures the hub: append-to-aggregate latency against a
// local reader of the same event, catch-up after a long time offline,
// and many nodes joining at once (time and the hub's memory per link).
func benchHub(ctx context.Context, b *bench) error {
	b.printf("## Hub (issue 8)\n\nWorkspaces are embedded servers in this process, linked to a hub over loopback leaf links (compression off), `--sync interval` on the workspaces.\n\n")
	if err := hubLatency(ctx, b); err != nil {
		return fmt.Errorf("latency: %w", err)
	}
	if err := hubCatchUp(ctx, b); err != nil {
		return fmt.Errorf("catch-up: %w", err)
	}
	if err := hubManyNodes(ctx, b); err != nil {
		return fmt.Errorf("many nodes: %w", err)
	}
	return nil
}

func freeLoopback() (string, error) {
	a, err := freeLoopbacks(1)
	if err != nil {
		return "", err
	}
	return a[0], nil
}

// freeLoopbacks returns n distinct free loopback addresses. Each listener
// stays open until all are picked: a port is free again once its
// listener is closed, and the kernel hands it out again often (about one
// pick in thirty of 400 in a row on this machine), which gave a hub the
// same port for two of its listeners.
func freeLoopbacks(n int) ([]string, error) {
	out := make([]string, 0, n)
	for range n {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		defer ln.Close()
		out = append(out, ln.Addr().String())
	}
	return out, nil
}

// newHubDir writes a hub folder with free loopback ports.
func newHubDir(b *bench) (*hub.Config, error) {
	dir := b.tempDir("hub")
	addrs, err := freeLoopbacks(2)
	if err != nil {
		return nil, err
	}
	leaf, api := addrs[0], addrs[1]
	if _, err := hub.Init(dir, hub.Config{Name: "bench", Data: "data", Leaf: leaf, HTTP: api}); err != nil {
		return nil, err
	}
	return hub.ReadConfig(dir)
}

// benchNode is a workspace clone with a node identity.
type benchNode struct {
	ws  *workspace.Workspace
	id  hublink.Identity
	url string
	n   *node.Node
}

// joinInProcess registers a new workspace at h.
func joinInProcess(ctx context.Context, b *bench, h *hub.Hub, team string) (*benchNode, error) {
	ws, _, err := workspace.Init(b.tempDir("ws"))
	if err != nil {
		return nil, err
	}
	id, err := hublink.NewIdentity()
	if err != nil {
		return nil, err
	}
	token, err := h.Invite(ctx, ws.ID(), team, "")
	if err != nil {
		return nil, err
	}
	t, err := hubwire.ParseJoinToken(token)
	if err != nil {
		return nil, err
	}
	pub, err := id.PublicKey()
	if err != nil {
		return nil, err
	}
	if _, err := h.Join(ctx, t.Secret, id.NodeID, pub, ws.ID(), ""); err != nil {
		return nil, err
	}
	return &benchNode{ws: ws, id: id, url: t.Leaf}, nil
}

// open opens the node's workspace, linked to the hub or not.
func (bn *benchNode) open(ctx context.Context, linked bool) error {
	o := node.Options{Sync: embeddednats.SyncInterval}
	if linked {
		id := bn.id
		id.Team = "" // the leaf link alone, without the team's catalog
		link, err := hublink.New(id, bn.url)
		if err != nil {
			return err
		}
		o.Link = link
	}
	n, err := node.Open(ctx, bn.ws, o)
	if err != nil {
		return err
	}
	bn.n = n
	return nil
}

func (bn *benchNode) close() {
	if bn.n != nil {
		bn.n.Close()
		bn.n = nil
	}
}

func (bn *benchNode) appendN(ctx context.Context, n int) error {
	for i := range n {
		if _, err := bn.n.Log.Append(ctx, sampleEvent(bn.ws.ID(), i)); err != nil {
			return err
		}
	}
	return nil
}

// follow delivers the id of every new message of stream to seen.
func follow(ctx context.Context, nc *nats.Conn, stream string, seen func(id string, at time.Time)) (func(), error) {
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, err
	}
	var st jetstream.Stream
	for attempt := 0; ; attempt++ {
		st, err = js.Stream(ctx, stream)
		if err == nil || attempt == 10 || !errors.Is(err, nats.ErrNoResponders) {
			break
		}
		time.Sleep(100 * time.Millisecond) // right after a reload
	}
	if err != nil {
		return nil, err
	}
	cons, err := st.OrderedConsumer(ctx, jetstream.OrderedConsumerConfig{DeliverPolicy: jetstream.DeliverNewPolicy})
	if err != nil {
		return nil, err
	}
	cc, err := cons.Consume(func(m jetstream.Msg) { seen(m.Headers().Get(nats.MsgIdHdr), time.Now()) })
	if err != nil {
		return nil, err
	}
	return cc.Stop, nil
}

// hubLatency appends events one at a time and times each until a reader
// of the workspace's own stream (the baseline) and a reader of the hub's
// aggregate have it.
func hubLatency(ctx context.Context, b *bench) error {
	n := 2000
	if b.quick {
		n = 200
	}
	cfg, err := newHubDir(b)
	if err != nil {
		return err
	}
	h, err := hub.Start(ctx, cfg, nil)
	if err != nil {
		return err
	}
	defer h.Close()
	bn, err := joinInProcess(ctx, b, h, "bench")
	if err != nil {
		return err
	}
	if err := bn.open(ctx, true); err != nil {
		return err
	}
	defer bn.close()
	hc, err := h.Connect()
	if err != nil {
		return err
	}
	defer hc.Close()
	// Warm up: the link is up and sourcing once one event went through.
	if err := bn.appendN(ctx, 1); err != nil {
		return err
	}
	if err := waitMsgs(ctx, hc, hubwire.AggregateStream, 1, time.Minute); err != nil {
		return err
	}
	var mu sync.Mutex
	arrived := map[string]chan time.Time{}
	got := func(which string) func(string, time.Time) {
		return func(id string, at time.Time) {
			mu.Lock()
			ch := arrived[which+id]
			mu.Unlock()
			if ch != nil {
				ch <- at
			}
		}
	}
	stopLocal, err := follow(ctx, bn.n.Conn, "CLUMSIES_"+bn.ws.ID(), got("local"))
	if err != nil {
		return err
	}
	defer stopLocal()
	stopHub, err := follow(ctx, hc, hubwire.AggregateStream, got("hub"))
	if err != nil {
		return err
	}
	defer stopHub()
	var local, remote []time.Duration
	for i := range n {
		ev := sampleEvent(bn.ws.ID(), i)
		lc, hc := make(chan time.Time, 1), make(chan time.Time, 1)
		mu.Lock()
		arrived["local"+ev.ID], arrived["hub"+ev.ID] = lc, hc
		mu.Unlock()
		start := time.Now()
		if _, err := bn.n.Log.Append(ctx, ev); err != nil {
			return err
		}
		for _, c := range []struct {
			ch  chan time.Time
			out *[]time.Duration
		}{{lc, &local}, {hc, &remote}} {
			select {
			case at := <-c.ch:
				*c.out = append(*c.out, at.Sub(start))
			case <-time.After(time.Minute):
				return fmt.Errorf("event %d did not arrive within a minute", i)
			}
		}
	}
	b.printf("### Append at a workspace to visible in the hub's aggregate\n\n%d events, one at a time: from the call to `Append` until an ordered consumer sees the event. Baseline: an ordered consumer of the workspace's own stream, same events, same run.\n\n", n)
	b.printf("| reader | p50 ms | p99 ms |\n|---|---|---|\n")
	b.printf("| workspace stream (baseline) | %.2f | %.2f |\n", ms(percentile(local, 50)), ms(percentile(local, 99)))
	b.printf("| hub aggregate | %.2f | %.2f |\n", ms(percentile(remote, 50)), ms(percentile(remote, 99)))
	b.printf("| ratio | %.1fx | %.1fx |\n\n", float64(percentile(remote, 50))/float64(percentile(local, 50)), float64(percentile(remote, 99))/float64(percentile(local, 99)))
	return nil
}

// waitMsgs waits until stream holds want messages.
func waitMsgs(ctx context.Context, nc *nats.Conn, stream string, want uint64, limit time.Duration) error {
	have, err := waitMsgsAt(ctx, nc, stream, want, limit)
	if err != nil {
		return err
	}
	if have != want {
		return fmt.Errorf("%s holds %d messages, want %d", stream, have, want)
	}
	return nil
}

// waitMsgsAt polls stream until it holds at least want messages and
// returns how many it holds.
func waitMsgsAt(ctx context.Context, nc *nats.Conn, stream string, want uint64, limit time.Duration) (uint64, error) {
	js, err := jetstream.New(nc)
	if err != nil {
		return 0, err
	}
	deadline := time.Now().Add(limit)
	for {
		st, err := js.Stream(ctx, stream)
		if err == nil {
			var info *jetstream.StreamInfo
			if info, err = st.Info(ctx); err == nil && info.State.Msgs >= want {
				return info.State.Msgs, nil
			}
		}
		// A request right after a reload of the hub's accounts can go
		// unanswered: ask again.
		if err != nil && !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, nats.ErrTimeout) && !errors.Is(err, nats.ErrNoResponders) {
			return 0, err
		}
		if time.Now().After(deadline) {
			return 0, fmt.Errorf("%s did not reach %d messages within %s", stream, want, limit)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// hubCatchUp stops the hub, appends n events at the workspace, starts the
// hub again and times the first event and all of them into the aggregate,
// and into the hub's stats.
func hubCatchUp(ctx context.Context, b *bench) error {
	n := 100_000
	if b.quick {
		n = 10_000
	}
	cfg, err := newHubDir(b)
	if err != nil {
		return err
	}
	h, err := hub.Start(ctx, cfg, nil)
	if err != nil {
		return err
	}
	bn, err := joinInProcess(ctx, b, h, "bench")
	if err != nil {
		h.Close()
		return err
	}
	if err := bn.open(ctx, true); err != nil {
		h.Close()
		return err
	}
	defer bn.close()
	h.Close()
	if err := bn.appendN(ctx, n); err != nil {
		return err
	}
	start := time.Now()
	h, err = hub.Start(ctx, cfg, nil)
	if err != nil {
		return err
	}
	defer h.Close()
	hc, err := h.Connect()
	if err != nil {
		return err
	}
	defer hc.Close()
	if _, err := waitMsgsAt(ctx, hc, hubwire.AggregateStream, 1, 5*time.Minute); err != nil {
		return err
	}
	first := time.Since(start)
	if err := waitMsgs(ctx, hc, hubwire.AggregateStream, uint64(n), 5*time.Minute); err != nil {
		return err
	}
	all := time.Since(start)
	for {
		st, err := h.Stats(hub.Query{Days: 2})
		if err != nil {
			return err
		}
		if st.Totals.Events == uint64(n) {
			break
		}
		if time.Since(start) > 10*time.Minute {
			return fmt.Errorf("the hub's stats count %d of %d events", st.Totals.Events, n)
		}
		time.Sleep(5 * time.Millisecond)
	}
	counted := time.Since(start)
	b.printf("### Catch-up after %d events offline\n\nThe hub is stopped, the workspace appends %d events, the hub starts again (the workspace's owner re-links by itself; the hub re-sources it when its link is admitted). Times from the hub's start.\n\n", n, n)
	b.printf("| first event in the aggregate | all in the aggregate | catch-up rate (events/s, first to all) | all counted in the hub's stats |\n|---|---|---|---|\n")
	b.printf("| %.2f s | %.2f s | %.0f | %.2f s |\n\n", first.Seconds(), all.Seconds(), float64(n-1)/(all-first).Seconds(), counted.Seconds())
	return nil
}

// hubManyNodes registers many nodes at a hub process, fills each with
// events while it is offline, then opens them all at once and times until
// the hub's stats count every event; it reads the hub's RSS before the
// links and after.
func hubManyNodes(ctx context.Context, b *bench) error {
	nodes, per := 100, 1000
	if b.quick {
		nodes, per = 10, 200
	}
	cfg, err := newHubDir(b)
	if err != nil {
		return err
	}
	cmd := exec.Command(b.bin, "hub", "serve", "--hub", cfg.Dir(), "--log-level", "error")
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return err
	}
	defer func() { cmd.Process.Signal(os.Interrupt); cmd.Wait() }()
	token, err := cfg.AdminToken()
	if err != nil {
		return err
	}
	api := cfg.APIURL()
	if err := waitHTTP(api+"/api/health", time.Minute); err != nil {
		return err
	}
	cl := hubwire.NewClient(api, token)
	var bns []*benchNode
	for range nodes {
		ws, _, err := workspace.Init(b.tempDir("ws"))
		if err != nil {
			return err
		}
		inv, err := cl.Invite(ctx, hubwire.InviteRequest{WorkspaceID: ws.ID(), Team: "bench"})
		if err != nil {
			return err
		}
		id, _, err := hublink.Join(ctx, ws, inv, nil)
		if err != nil {
			return err
		}
		bn := &benchNode{ws: ws, id: id, url: ws.Config.Hub.URL}
		if err := bn.open(ctx, false); err != nil {
			return err
		}
		if err := bn.appendN(ctx, per); err != nil {
			return err
		}
		bn.close()
		bns = append(bns, bn)
	}
	before := rssKiB(cmd.Process.Pid)
	start := time.Now()
	var wg sync.WaitGroup
	errs := make(chan error, nodes)
	for _, bn := range bns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := bn.open(ctx, true); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	defer func() {
		for _, bn := range bns {
			bn.close()
		}
	}()
	select {
	case err := <-errs:
		return err
	default:
	}
	want := uint64(nodes * per)
	for {
		st, err := cl.Stats(ctx, hubwire.StatsQuery{Days: 2})
		if err != nil {
			return err
		}
		if st.Totals.Events == want {
			break
		}
		if st.Totals.Events > want {
			return fmt.Errorf("the hub counts %d events, want %d", st.Totals.Events, want)
		}
		if time.Since(start) > 10*time.Minute {
			return fmt.Errorf("the hub counts %d of %d events after 10 minutes", st.Totals.Events, want)
		}
		time.Sleep(50 * time.Millisecond)
	}
	took := time.Since(start)
	after := rssKiB(cmd.Process.Pid)
	b.printf("### %d nodes with %d events each joining at once\n\nEvery node is registered and filled while offline; then all open at once (each dials the hub). Time until the hub's stats count every event (exact: %d); RSS of the `clumsies hub serve` process before the links and after.\n\n", nodes, per, want)
	b.printf("| nodes | events | until all counted | hub RSS before | after | per linked node |\n|---|---|---|---|---|---|\n")
	b.printf("| %d | %d | %.2f s | %.0f MiB | %.0f MiB | %.2f MiB |\n\n", nodes, want, took.Seconds(), float64(before)/1024, float64(after)/1024, float64(after-before)/1024/float64(nodes))
	return nil
}

func rssKiB(pid int) int64 {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "status"))
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			n, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return n
		}
	}
	return 0
}

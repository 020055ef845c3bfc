package main_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// newCluster starts three hub processes routed to each other, sharing one
// admin token.
func newCluster(tb testing.TB) []*hubProcess {
	tb.Helper()
	// Ports are picked free and then given to the hubs: another process
	// may take one meanwhile. A cluster that does not come up is made
	// again on fresh ports.
	var err error
	for range 3 {
		var hubs []*hubProcess
		if hubs, err = tryCluster(tb); err == nil {
			return hubs
		}
		tb.Logf("the cluster did not come up, trying other ports: %v", err)
	}
	tb.Fatal(err)
	return nil
}

// tryCluster configures and starts three hubs forming a cluster.
func tryCluster(tb testing.TB) ([]*hubProcess, error) {
	tb.Helper()
	routes := []string{freeAddr(tb), freeAddr(tb), freeAddr(tb)}
	var hubs []*hubProcess
	for i := range 3 {
		dir := tb.TempDir()
		leaf, api := freeAddr(tb), freeAddr(tb)
		var others []string
		for j, r := range routes {
			if j != i {
				others = append(others, "nats-route://"+r)
			}
		}
		mustRun(tb, dir, "hub", "init", "--name", fmt.Sprintf("hub-%d", i+1), "--leaf", leaf, "--http", api,
			"--cluster", "e2e", "--cluster-listen", routes[i], "--routes", strings.Join(others, ","))
		if i > 0 {
			b, err := os.ReadFile(filepath.Join(hubs[0].dir, "data", "admin.token"))
			if err != nil {
				tb.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "data", "admin.token"), b, 0o600); err != nil {
				tb.Fatal(err)
			}
		}
		hubs = append(hubs, &hubProcess{dir: dir, api: "http://" + api})
	}
	var wg sync.WaitGroup
	errs := make([]error, len(hubs))
	for i, hp := range hubs {
		wg.Add(1)
		go func() { defer wg.Done(); errs[i] = hp.tryStart() }()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		for _, hp := range hubs {
			hp.stop()
		}
		return nil, err
	}
	for _, hp := range hubs {
		tb.Cleanup(hp.stop)
	}
	return hubs, nil
}

// kill ends a hub process with SIGKILL.
func (hp *hubProcess) kill() {
	hp.cmd.Process.Signal(syscall.SIGKILL)
	hp.cmd.Wait()
	hp.cmd = nil
}

// leader asks hp which hub leads the aggregate.
func leader(tb testing.TB, hp *hubProcess) string {
	tb.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		h, err := hp.client("").Health(ctx)
		cancel()
		if err == nil && h.Leader != "" {
			return h.Leader
		}
		if time.Now().After(deadline) {
			tb.Fatalf("no aggregate leader known at %s", hp.api)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// waitEvents waits until hp's stats count want events. The bound is over
// a source's longest retry backoff (2 min), which the hub's re-sourcing on
// a new link or a new leader normally cuts to about a second; a failure
// shows the hub's view of its nodes.
func waitEvents(tb testing.TB, hp *hubProcess, want uint64) {
	tb.Helper()
	deadline := time.Now().Add(3 * time.Minute)
	var got hubTotals
	for {
		got = hubStats(tb, hp)
		if got.Totals.Events >= want || time.Now().After(deadline) {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	if got.Totals.Events != want {
		nodes := run(tb, hp.dir, "hub", "nodes", "--json")
		tb.Fatalf("hub at %s counts %d events, want %d; its nodes:\n%s%s", hp.api, got.Totals.Events, want, nodes.stdout, nodes.stderr)
	}
}

// TestHub_ClusterKill runs three hubs as one cluster with a replicated
// aggregate, links a workspace to the first, and kills (SIGKILL) the hub
// holding its link during a burst of tool calls, then the aggregate's
// leader during another: every event arrives, none twice.
func TestHub_ClusterKill(t *testing.T) {
	t0 := time.Now()
	hubs := newCluster(t)
	t.Logf("cluster up after %s", time.Since(t0))
	ws := newWorkspace(t)
	hubs[0].join(t, ws, "red", "ann")
	_, cl := serve(t, ws)
	setup(t, cl, "sess-c")
	wf := workflowID(t, cl)
	burst := func(n int, mid func()) {
		for i := range n {
			if i == n/2 && mid != nil {
				mid()
			}
			call(t, cl, "memref", map[string]any{"refs": []any{map[string]any{"ruleId": wf, "constraintId": "Steps/1"}}})
		}
	}
	// Every call is acknowledged once its event is durable: the ledger
	// holds them all (the read models may still be catching up).
	localEvents := func() uint64 { return uint64(len(eventLines(t, ws))) }
	start := time.Now()
	burst(20, nil)
	waitEvents(t, hubs[1], localEvents())
	t.Logf("linked and caught up after %s", time.Since(start))

	// SIGKILL the hub holding the workspace's link in the middle of a burst.
	start = time.Now()
	burst(30, hubs[0].kill)
	t.Logf("burst over %s after killing the linked hub", time.Since(start))
	waitEvents(t, hubs[1], localEvents())
	t.Logf("caught up %s after killing the linked hub", time.Since(start))
	t0 = time.Now()
	hubs[0].start(t)
	t.Logf("hub-1 back after %s", time.Since(t0))

	// SIGKILL the aggregate's leader in the middle of a burst.
	lead := leader(t, hubs[1])
	var victim, survivor *hubProcess
	for i, hp := range hubs {
		if fmt.Sprintf("hub-%d", i+1) == lead {
			victim = hp
		} else {
			survivor = hp
		}
	}
	if victim == nil {
		t.Fatalf("leader %q is none of the hubs", lead)
	}
	start = time.Now()
	burst(30, victim.kill)
	t.Logf("burst over %s after killing the leader", time.Since(start))
	waitEvents(t, survivor, localEvents())
	t.Logf("caught up %s after killing the leader", time.Since(start))
}

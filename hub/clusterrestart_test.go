package hub_test

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/clumsies/clumsies/hub"
)

// warnings keeps the messages of the records at Warn and above that a
// hub logs; with HUB_TEST_LOG set, every record is also written to
// stderr as testLogger writes them.
type warnings struct {
	mu   sync.Mutex
	msgs []string
}

func (w *warnings) Enabled(_ context.Context, l slog.Level) bool {
	return l >= slog.LevelWarn || (l >= slog.LevelInfo && testLogger() != nil)
}
func (w *warnings) Handle(ctx context.Context, r slog.Record) error {
	if l := testLogger(); l != nil {
		_ = l.Handler().Handle(ctx, r)
	}
	if r.Level < slog.LevelWarn {
		return nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.msgs = append(w.msgs, r.Message)
	return nil
}
func (w *warnings) WithAttrs([]slog.Attr) slog.Handler { return w }
func (w *warnings) WithGroup(string) slog.Handler      { return w }

func (w *warnings) count(sub string) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := 0
	for _, m := range w.msgs {
		if strings.Contains(m, sub) {
			n++
		}
	}
	return n
}

// TestCluster_RestartWithLaggingCopies stops a cluster of three holding 8
// nodes, removes the registry's local copy of two hubs (a copy is written
// behind the changes, so a hub may stop before it holds the last joins)
// and starts the three together. The two then learn the nodes from the
// registry bucket and ask the others whether they set up the nodes'
// accounts: every hub answers, none waits out its bound. Before the hubs
// answered from the start of Start, two hubs starting together each
// waited 10 s per node for the other, which answered only once started:
// 200 nodes held a restarted cluster for half an hour.
func TestCluster_RestartWithLaggingCopies(t *testing.T) {
	const nodes = 8
	hubs := newTestCluster(t)
	sns := make([]*stormNode, nodes)
	for i := range sns {
		sns[i] = inviteNode(t, hubs[0], "red")
	}
	for _, sn := range sns {
		joinSoon(t, hubs[0], sn)
	}
	for _, th := range hubs {
		th.stop()
	}
	for _, th := range hubs[1:] {
		if err := os.Remove(filepath.Join(th.cfg.DataDir(), "registry.json")); err != nil {
			t.Fatal(err)
		}
	}
	w := &warnings{}
	var wg sync.WaitGroup
	errs := make([]error, len(hubs))
	for i, th := range hubs {
		wg.Go(func() {
			h, err := hub.Start(context.Background(), th.cfg, slog.New(w))
			th.h, errs[i] = h, err
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	for _, th := range hubs {
		if got := len(th.h.Nodes()); got != nodes {
			t.Errorf("hub %s holds %d nodes, want %d", th.cfg.Name, got, nodes)
		}
	}
	if n := w.count("may miss the node's link"); n > 0 {
		t.Fatalf("%d nodes' accounts were not confirmed by every hub at the restart (each waited out the bound): %v", n, w.msgs)
	}
}

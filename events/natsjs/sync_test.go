package natsjs_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	embeddednats "github.com/clumsies/clumsies/embedded-nats"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/events/eventstest"
	"github.com/clumsies/clumsies/events/natsjs"
)

// openGroup opens the test workspace's log on a SyncGroup server, syncing
// through sync (the stream's StreamSync when nil).
func openGroup(tb testing.TB, n *node, sync natsjs.Syncer) (*natsjs.Log, *embeddednats.StreamSync) {
	tb.Helper()
	g, err := n.srv.StreamSync(natsjs.StreamName(workspace))
	if err != nil {
		tb.Fatal(err)
	}
	if sync == nil {
		sync = g
	}
	l, err := natsjs.Open(testCtx(tb), n.nc, workspace, natsjs.Options{Sync: sync})
	if err != nil {
		tb.Fatalf("Open: %v", err)
	}
	return l, g
}

func TestLog_ConformanceGroupSync(t *testing.T) {
	eventstest.Run(t, func(t *testing.T) events.Log {
		l, _ := openGroup(t, startNode(t, t.TempDir(), embeddednats.SyncGroup), nil)
		return l
	})
}

func TestLog_SyncsEveryAppend(t *testing.T) {
	n := startNode(t, t.TempDir(), embeddednats.SyncGroup)
	l, g := openGroup(t, n, nil)
	evs := make([]events.Event, 100)
	for i := range evs {
		evs[i] = eventstest.Event(t, i)
	}
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := range 25 {
				if _, err := l.Append(testCtx(t), evs[w*25+i]); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	// A duplicate is acknowledged too, and synced: its first attempt may
	// not have been.
	if _, err := l.Append(testCtx(t), evs[0]); err != nil {
		t.Fatal(err)
	}
	rounds, calls := g.Stats()
	if calls != 101 {
		t.Errorf("%d syncs for 101 appends, want one each", calls)
	}
	if rounds == 0 || rounds > calls {
		t.Errorf("%d fsync rounds for %d syncs", rounds, calls)
	}
	if got := len(replayAll(t, l)); got != 100 {
		t.Errorf("the log holds %d events, want 100", got)
	}
}

// failingSync is a Syncer whose disk has failed.
type failingSync struct{}

var errDiskGone = errors.New("disk gone")

func (failingSync) Sync(context.Context) error { return errDiskGone }

func TestLog_AppendFailsWhenTheSyncFails(t *testing.T) {
	l, _ := openGroup(t, startNode(t, t.TempDir(), embeddednats.SyncGroup), failingSync{})
	ev := eventstest.Event(t, 0)
	_, err := l.Append(testCtx(t), ev)
	if !errors.Is(err, errDiskGone) {
		t.Fatalf("Append with a failing sync: got %v, want the sync's error", err)
	}
}

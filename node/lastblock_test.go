package node_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime/metrics"
	"strings"
	"testing"

	embeddednats "github.com/clumsies/clumsies/embedded-nats"
	"github.com/clumsies/clumsies/events/natsjs"
)

// TestOwner_ReleasesBeforeTheLastBlockGrows appends the owner's events
// until the stream's first block passes 256 KiB, the first of
// nats-server's buffer sizes, and wants the process's free heap pages
// returned (a forced collection) within embeddednats.BlockZone under it,
// before the block passed it, and not before the zone.
func TestOwner_ReleasesBeforeTheLastBlockGrows(t *testing.T) {
	ws := newWorkspace(t)
	n := openNode(t, ws)
	defer n.Close()
	block := filepath.Join(embeddednats.StreamDir(ws.StateDir(), natsjs.StreamName(ws.ID())), "msgs", "1.blk")
	const limit = 256 << 10
	ctx := context.Background()
	summary := strings.Repeat("work ", 100)
	var released bool
	for {
		before := forcedCycles()
		if _, err := n.Log.Append(ctx, report(t, n.WS, summary)); err != nil {
			t.Fatal(err)
		}
		st, err := os.Stat(block)
		if err != nil {
			t.Fatal(err)
		}
		forced := forcedCycles() > before
		switch {
		case st.Size() > limit:
			if !released {
				t.Fatalf("the block passed %d bytes (%d) with no release before it", limit, st.Size())
			}
			return
		case forced && st.Size() < limit-embeddednats.BlockZone:
			t.Fatalf("a forced collection at %d bytes, before the zone", st.Size())
		case forced:
			released = true
		}
	}
}

// forcedCycles returns how many collections were forced (runtime.GC,
// debug.FreeOSMemory) in this process.
func forcedCycles() uint64 {
	s := []metrics.Sample{{Name: "/gc/cycles/forced:gc-cycles"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

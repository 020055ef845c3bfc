package node_test

import (
	"context"
	"testing"
	"time"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/node"
	"github.com/clumsies/clumsies/proof/ledger"
)

// TestHandle_Checkpoints runs an owner that checkpoints every 5 events
// while a second process appends too: a checkpoint follows once 5 events
// have passed, right after what it covers, the last one comes at
// shutdown, the chain holds, and checkpoints are not tool calls.
func TestHandle_Checkpoints(t *testing.T) {
	ws := suiteWorkspace(t)
	owner := attach(t, ws, func(o *node.Options) { o.CheckpointEvery = 5 })
	remote := attach(t, ws)
	ctx := context.Background()
	record := func(k int) {
		for i := 0; i < k; i++ {
			h := owner
			if i%2 == 1 {
				h = remote
			}
			if err := h.Record(ctx, report(t, ws, "work")); err != nil {
				t.Fatal(err)
			}
		}
	}
	waitCheckpoints := func(want int) {
		deadline := time.Now().Add(30 * time.Second)
		for countType(t, owner, events.TypeCheckpoint) < want {
			if time.Now().After(deadline) {
				t.Fatalf("got no checkpoint %d in 30s", want)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	record(4)
	record(1)
	waitCheckpoints(1)
	record(7)
	waitCheckpoints(2)
	record(2)
	if got := countType(t, owner, events.TypeCheckpoint); got != 2 {
		t.Fatalf("got %d checkpoints 2 events after the second, want 2", got)
	}
	st, err := remote.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range st.Tools {
		if m.Tool != "agentreport" || m.Calls != 14 {
			t.Errorf("tool metrics: got %+v, want only agentreport with 14 calls", m)
		}
	}
	if err := remote.Close(); err != nil {
		t.Fatal(err)
	}
	if err := owner.Close(); err != nil {
		t.Fatal(err)
	}

	// Read the ledger again: the owner's last act was a checkpoint.
	h := attach(t, ws)
	var last events.Event
	if err := h.Replay(ctx, 1, func(ev events.Event) error { last = ev; return nil }); err != nil {
		t.Fatal(err)
	}
	if last.Type != events.TypeCheckpoint {
		t.Fatalf("last event: got %s, want the shutdown checkpoint", last.Type)
	}
	r, err := ledger.Check(ctx, h, ws.ID(), nil)
	if err != nil || r.Problem != nil || r.Verified != last.Seq-1 || r.Checkpoints != 3 || r.Through != 17 {
		t.Fatalf("chain: got %+v, %v; want 17 events, 3 checkpoints, verified through %d", r, err, last.Seq-1)
	}
	var prev uint64
	if err := h.Replay(ctx, 1, func(ev events.Event) error {
		if ev.Type == events.TypeCheckpoint {
			if n := ev.Seq - prev - 1; n < 2 || (n < 5 && ev.Seq != last.Seq) {
				t.Errorf("checkpoint at seq %d comes %d events after the one before", ev.Seq, n)
			}
			prev = ev.Seq
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

func countType(tb testing.TB, h *node.Handle, typ events.Type) int {
	tb.Helper()
	n := 0
	if err := h.Replay(context.Background(), 1, func(ev events.Event) error {
		if ev.Type == typ {
			n++
		}
		return nil
	}); err != nil {
		tb.Fatal(err)
	}
	return n
}

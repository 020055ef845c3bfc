package natsjs_test

import (
	"errors"
	"testing"

	embeddednats "github.com/clumsies/clumsies/embedded-nats"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/events/eventstest"
)

func TestLog_AppendStored(t *testing.T) {
	src := startNode(t, t.TempDir(), embeddednats.SyncInterval).open(t)
	ctx := testCtx(t)
	for i := 0; i < 5; i++ {
		if _, err := src.Append(ctx, eventstest.Event(t, i)); err != nil {
			t.Fatal(err)
		}
	}
	var stored []events.Event
	if err := src.Replay(ctx, 1, func(ev events.Event) error { stored = append(stored, ev); return nil }); err != nil {
		t.Fatal(err)
	}

	dst := startNode(t, t.TempDir(), embeddednats.SyncInterval).open(t)
	if err := dst.AppendStored(ctx, stored[1:3]); !errors.Is(err, events.ErrConflict) {
		t.Fatalf("store seqs 2..3 into an empty stream: got %v, want ErrConflict", err)
	}
	if last, _ := dst.LastSeq(ctx); last != 0 {
		t.Fatalf("after a refused store: stream at %d, want 0", last)
	}
	foreign := stored[0]
	foreign.WorkspaceID = "ws-other"
	if err := dst.AppendStored(ctx, []events.Event{foreign}); !errors.Is(err, events.ErrMalformed) {
		t.Fatalf("store an event of another workspace: got %v, want ErrMalformed", err)
	}
	if err := dst.AppendStored(ctx, stored[:2]); err != nil {
		t.Fatal(err)
	}
	if err := dst.AppendStored(ctx, stored[2:]); err != nil {
		t.Fatal(err)
	}
	i := 0
	if err := dst.Replay(ctx, 1, func(ev events.Event) error {
		if ev.Seq != stored[i].Seq || string(ev.Raw) != string(stored[i].Raw) {
			t.Errorf("seq %d: got %q, want seq %d %q", ev.Seq, ev.Raw, stored[i].Seq, stored[i].Raw)
		}
		i++
		return nil
	}); err != nil || i != len(stored) {
		t.Fatalf("replay of the copy: %d events, %v", i, err)
	}
}

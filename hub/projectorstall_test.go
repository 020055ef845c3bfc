package hub

import (
	"context"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	embeddednats "github.com/clumsies/clumsies/embedded-nats"
	"github.com/clumsies/clumsies/events/natsjs"
	"github.com/clumsies/clumsies/projections/engine"
)

// TestWatchStall_EndsAFollowThatAppliesNothing checks the stall watch on
// a real stream: while the stream holds messages past what the projector
// applied and it applies none, the watch reports the stream's last
// sequence and ends the follow, so that the projector follows again with
// a new consumer.
func TestWatchStall_EndsAFollowThatAppliesNothing(t *testing.T) {
	srv := &embeddednats.Server{Dir: t.TempDir()}
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	nc, err := srv.Connect()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: "AGG", Subjects: []string{"agg.>"}}); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if _, err := js.Publish(ctx, "agg.x", []byte("{}")); err != nil {
			t.Fatal(err)
		}
	}
	src, err := natsjs.OpenSource(ctx, nc, "AGG", natsjs.Options{})
	if err != nil {
		t.Fatal(err)
	}
	p := testProjector(t) // applied nothing, and applies nothing
	last, stalled := engine.WatchStall(ctx, p.Applied, src, engine.Stall{Check: stallCheck, After: stallAfter})
	if !stalled {
		t.Fatal("the watch did not end a follow that applied nothing of 3 messages")
	}
	if last != 3 {
		t.Fatalf("the watch reported last seq %d, want 3", last)
	}
}

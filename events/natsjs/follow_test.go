package natsjs_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/clumsies/clumsies/embedded-nats"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/events/natsjs"
)

// TestLog_SlowSubscriberBounded: a subscriber that stops reading holds a
// bounded number of bytes, not a fixed number of events: with events of
// 512 KiB, far fewer than the 64 in the stream are delivered to it.
func TestLog_SlowSubscriberBounded(t *testing.T) {
	n := startNode(t, t.TempDir(), embeddednats.SyncInterval)
	l := n.open(t)
	const size, count = 512 << 10, 64
	for i := range count {
		ev, err := events.New(workspace, events.TypeAgentReport, events.AgentReportData{Summary: strings.Repeat("x", size)})
		if err != nil {
			t.Fatal(err)
		}
		ev.SessionID, ev.Tool = "slow", "agentreport"
		if _, err := l.Append(testCtx(t), ev); err != nil {
			t.Fatalf("append %d: %v", i, err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	got := make(chan struct{}, 1)
	done := make(chan error, 1)
	go func() {
		done <- l.Subscribe(ctx, 1, func(events.Event) error {
			got <- struct{}{}
			<-ctx.Done() // a reader that stops reading
			return ctx.Err()
		})
	}()
	select {
	case <-got:
	case <-time.After(time.Minute):
		t.Fatal("no event delivered within a minute")
	}
	js, err := jetstream.New(n.nc)
	if err != nil {
		t.Fatal(err)
	}
	stream, err := js.Stream(testCtx(t), natsjs.StreamName(workspace))
	if err != nil {
		t.Fatal(err)
	}
	// Delivery to the client stops once its pull is used up; wait until
	// the count holds still (a broken bound delivers all 64 at once).
	delivered, stillFor := uint64(0), 0
	for stillFor < 10 && delivered < count {
		time.Sleep(100 * time.Millisecond)
		var now uint64
		for info := range stream.ListConsumers(testCtx(t)).Info() {
			now = max(now, info.Delivered.Stream)
		}
		if now == delivered {
			stillFor++
		} else {
			delivered, stillFor = now, 0
		}
	}
	if limit := uint64(20); delivered > limit {
		t.Fatalf("a stalled subscriber was sent %d events of %d KiB, want at most %d (about 8 MiB)", delivered, size>>10, limit)
	}
	cancel()
	<-done
}

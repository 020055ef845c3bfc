package natsjs_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
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

// TestLog_SubscribeStopsOnError: Subscribe returns fn's first error, and
// fn is not called again once Subscribe has returned, neither after an
// error nor after ctx ends (its caller may be gone).
func TestLog_SubscribeStopsOnError(t *testing.T) {
	n := startNode(t, t.TempDir(), embeddednats.SyncInterval)
	l := n.open(t)
	appendOne := func(i int) {
		t.Helper()
		ev, err := events.New(workspace, events.TypeAgentReport, events.AgentReportData{Summary: fmt.Sprint("report ", i)})
		if err != nil {
			t.Fatal(err)
		}
		ev.SessionID, ev.Tool = "stops", "agentreport"
		if _, err := l.Append(testCtx(t), ev); err != nil {
			t.Fatalf("append %d: %v", i, err)
		}
	}
	for i := range 5 {
		appendOne(i)
	}
	stop := errors.New("stop")
	var calls atomic.Int32
	err := l.Subscribe(testCtx(t), 1, func(events.Event) error {
		if calls.Add(1) == 2 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) {
		t.Fatalf("Subscribe returned %v, want fn's error", err)
	}
	ctx, cancel := context.WithCancel(testCtx(t))
	var late atomic.Int32
	done := make(chan error, 1)
	go func() { done <- l.Subscribe(ctx, 1, func(events.Event) error { late.Add(1); return nil }) }()
	for late.Load() < 5 { // the cancelled subscriber has been delivered what there is
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Subscribe after cancel returned %v, want context.Canceled", err)
	}
	before := late.Load()
	// More events, and a third subscriber that sees them: by then the
	// others would have been delivered them too, had they gone on.
	for i := 5; i < 8; i++ {
		appendOne(i)
	}
	seen := make(chan struct{})
	wctx, wcancel := context.WithCancel(testCtx(t))
	defer wcancel()
	go l.Subscribe(wctx, 8, func(events.Event) error { close(seen); <-wctx.Done(); return wctx.Err() })
	select {
	case <-seen:
	case <-time.After(time.Minute):
		t.Fatal("a new subscriber was not delivered event 8 within a minute")
	}
	if got := calls.Load(); got != 2 {
		t.Errorf("fn was called %d times, want 2 (none after its error)", got)
	}
	if got := late.Load(); got != before {
		t.Errorf("fn was called %d more times after Subscribe returned on cancel", got-before)
	}
}

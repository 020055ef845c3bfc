package hub

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// TestWatchStall: a watch behind the bucket is stalled once it has
// delivered nothing for watchStallAfter; one that delivers, however far
// behind, or that has caught up, is not.
func TestWatchStall(t *testing.T) {
	var s watchStall
	t0 := time.Date(2026, 11, 30, 2, 0, 0, 0, time.UTC)
	if s.observe(5, 5, t0) || s.observe(5, 9, t0) {
		t.Fatal("a watch at or past the bucket's last revision is stalled")
	}
	if s.observe(9, 5, t0) {
		t.Fatal("a watch first seen behind is stalled")
	}
	if s.observe(12, 6, t0.Add(watchStallAfter)) {
		t.Fatal("a watch that delivered since it was seen behind is stalled")
	}
	if s.observe(12, 6, t0.Add(2*watchStallAfter-time.Millisecond)) {
		t.Fatalf("a watch silent for less than %s is stalled", watchStallAfter)
	}
	if !s.observe(12, 6, t0.Add(2*watchStallAfter)) {
		t.Fatalf("a watch behind and silent for %s is not stalled", watchStallAfter)
	}
	if s.observe(12, 12, t0.Add(3*watchStallAfter)) || s.observe(13, 12, t0.Add(3*watchStallAfter)) {
		t.Fatal("a watch that caught up, then is behind again, is stalled at once")
	}
}

// TestRegistryWatch_EndsWhenItsConsumerIsGone removes the watch's
// consumer, as a server of the cluster that held it stops, and keeps
// removing the ones nats.go makes again, while another hub writes a node:
// the watch ends with errWatchStalled, and a watch made again delivers
// the node. Before, the watch stayed silent until nats.go noticed its
// missed heartbeats (10 to 20 s) and made its consumer again, 10 s per
// try while the cluster could not answer; a copy that lagged meanwhile
// could not set up the nodes joined at other hubs.
func TestRegistryWatch_EndsWhenItsConsumerIsGone(t *testing.T) {
	ctx := context.Background()
	r := testRegistry(t)
	wctx, stop := context.WithCancel(ctx)
	defer stop()
	ended := make(chan error, 1)
	go func() { ended <- r.watch(wctx, func(string) {}) }()
	putElsewhere(t, r, "n-before")
	copyHolds(t, r, "n-before")

	s, err := r.js.Stream(ctx, "KV_"+hubwire.RegistryBucket)
	if err != nil {
		t.Fatal(err)
	}
	removeConsumers := func() {
		names := s.ConsumerNames(ctx)
		for name := range names.Name() {
			_ = s.DeleteConsumer(ctx, name) // gone already is fine
		}
	}
	removeConsumers()
	putElsewhere(t, r, "n-after")
	deadline := time.After(wait)
	for done := false; !done; {
		select {
		case err := <-ended:
			if !errors.Is(err, errWatchStalled) {
				t.Fatalf("the watch whose consumer is gone ended with %v, want %v", err, errWatchStalled)
			}
			done = true
		case <-deadline:
			t.Fatalf("the watch whose consumer is gone has not ended after %s", wait)
		case <-time.After(100 * time.Millisecond):
			removeConsumers()
		}
	}
	if _, ok := r.node("n-after"); ok {
		t.Fatal("the copy holds n-after, written while its watch had no consumer")
	}
	go func() { ended <- r.watch(wctx, func(string) {}) }()
	copyHolds(t, r, "n-after")
}

// wait bounds the tests' waits on a condition: generous, for a loaded
// machine.
const wait = time.Minute

// copyHolds waits until r's copy holds node id.
func copyHolds(t *testing.T, r *registry, id string) {
	t.Helper()
	for deadline := time.Now().Add(wait); ; time.Sleep(10 * time.Millisecond) {
		if _, ok := r.node(id); ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("node %s, written to the bucket, is not in the copy after %s", id, wait)
		}
	}
}

package engine

import (
	"context"
	"runtime"
	"testing"
	"time"
	"unsafe"
	"weak"
)

// held is an item of the size of an event, which the tests can watch
// being let go; body stands for the event's fields.
type held struct {
	seq  uint64
	body [256]byte
}

// pumpAll pumps items (all known) through a runner of batchSize, and
// returns once they are applied; the pump goes on following, its source
// waiting for more, until the test ends.
func pumpAll[T any](t *testing.T, items []T, seq func(T) uint64, batchSize int) {
	t.Helper()
	var p Progress
	r := Runner[T]{
		Seq: seq,
		Apply: func(batch []T) error {
			p.Advance(seq(batch[len(batch)-1]))
			return nil
		},
		Progress:  &p,
		BatchSize: batchSize,
	}
	sub := func(ctx context.Context, from uint64, fn func(T) error) error {
		for i := from; i <= uint64(len(items)); i++ {
			it := items[i-1]
			var zero T
			items[i-1] = zero // the source keeps nothing it delivered
			if err := fn(it); err != nil {
				return err
			}
		}
		<-ctx.Done()
		return nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- r.Pump(ctx, sub, uint64(len(items)), nil) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Pump: %v", err)
		}
	})
	wait, stop := context.WithTimeout(ctx, 30*time.Second)
	defer stop()
	if err := p.WaitFor(wait, uint64(len(items))); err != nil {
		t.Fatalf("waiting for item %d: %v", len(items), err)
	}
}

// TestPump_LetsAppliedItemsGo: once a batch is applied, the runner keeps
// none of its items alive (a serving process that caught up on a publish
// of a thousand rules held every event of it until the next batch of as
// many overwrote them).
func TestPump_LetsAppliedItemsGo(t *testing.T) {
	const n = 200
	items := make([]*held, n)
	weaks := make([]weak.Pointer[held], n)
	for i := range items {
		items[i] = &held{seq: uint64(i + 1)}
		items[i].body[0] = byte(i)
		weaks[i] = weak.Make(items[i])
	}
	pumpAll(t, items, func(h *held) uint64 { return h.seq }, 1000)
	runtime.GC()
	runtime.GC()
	var kept []int
	// The last two may still sit in the pump's own variables.
	for i, w := range weaks[:n-2] {
		if w.Value() != nil {
			kept = append(kept, i+1)
		}
	}
	if len(kept) > 0 {
		t.Errorf("items applied and done with are still alive: %d of %d (first %v)", len(kept), n-2, kept[:min(len(kept), 5)])
	}
}

// TestPump_SmallWhileFollowing: a runner that follows a source a few
// items at a time allocates buffers for about that many, not for a whole
// batch (1,000 items) and a whole chunk (256) up front.
func TestPump_SmallWhileFollowing(t *testing.T) {
	items := []held{{seq: 1}, {seq: 2}, {seq: 3}}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	pumpAll(t, items, func(h held) uint64 { return h.seq }, 1000)
	runtime.ReadMemStats(&after)
	size := int(unsafe.Sizeof(held{}))
	full := uint64((1000 + 256) * size)
	if got := after.TotalAlloc - before.TotalAlloc; got >= full/4 {
		t.Errorf("pumping 3 items of %d bytes allocated %d bytes; a whole batch and chunk are %d", size, got, full)
	}
}

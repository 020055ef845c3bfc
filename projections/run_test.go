package projections_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections"
)

// running runs s.Run on log until the test ends and returns a function
// that stops it and returns Run's error.
func running(tb testing.TB, s *projections.Store, log events.Log) (stop func() error) {
	tb.Helper()
	ctx, cancel := context.WithCancel(testCtx(tb))
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx, log) }()
	var err error
	stopped := false
	stop = func() error {
		if !stopped {
			cancel()
			err, stopped = <-done, true
		}
		return err
	}
	tb.Cleanup(func() { stop() })
	return stop
}

func TestStore_Run(t *testing.T) {
	t.Run("CatchesUpAndFollows", func(t *testing.T) {
		l := newLedger(t)
		evs := mixed(l)
		s := openAt(t, vfs.NewMem(), "/db", projections.Options{BatchSize: 4})
		stop := running(t, s, l.log)
		if err := s.WaitFor(testCtx(t), uint64(len(evs))); err != nil {
			t.Fatalf("wait for catch-up: %v", err)
		}
		ev := l.publish(ruleB, content.KindRule, "py/B.md", "## New\nbody\n")
		if err := s.WaitFor(testCtx(t), ev.Seq); err != nil {
			t.Fatalf("wait for a new event: %v", err)
		}
		if it := mustView(t, s, ruleB); it.Body != "## New\nbody\n" {
			t.Errorf("got body %q, want the new one", it.Body)
		}
		if err := stop(); !errors.Is(err, context.Canceled) {
			t.Errorf("run: got %v, want context.Canceled", err)
		}

		ref := openMem(t)
		apply(t, ref, l.all()...)
		if got, want := digest(t, s), digest(t, ref); got != want {
			t.Errorf("digest: got %s, want %s (as one Apply)", got, want)
		}
	})
	t.Run("StartsAtCheckpoint", func(t *testing.T) {
		l, s := newLedger(t), openMem(t)
		evs := mixed(l)
		apply(t, s, evs[:4]...)
		running(t, s, l.log)
		if err := s.WaitFor(testCtx(t), uint64(len(evs))); err != nil {
			t.Fatalf("wait: %v", err)
		}
		if got := s.Summary().Events; got != uint64(len(evs)) {
			t.Errorf("events: got %d, want %d", got, len(evs))
		}
	})
	t.Run("StopsOnApplyError", func(t *testing.T) {
		l, s := newLedger(t), openMem(t)
		l.refer(ruleA, []string{"Style"})
		l.add(events.TypeRefer, []byte(`{"refs":7}`))
		err := s.Run(testCtx(t), l.log)
		if err == nil || errors.Is(err, context.Canceled) {
			t.Fatalf("got %v, want the decode error", err)
		}
	})
}

// TestStore_RunLingers checks the batching of evidence-only events: nobody
// waits for them, yet they are applied; a waiter gets them at once; and a
// catalog event that follows them is not held back.
func TestStore_RunLingers(t *testing.T) {
	l := newLedger(t)
	l.publish(ruleA, content.KindRule, "go/A.md", "## Steps\n- one\n")
	s := openMem(t)
	running(t, s, l.log)
	var last events.Event
	for i := 0; i < 5; i++ {
		last = l.refer(ruleA, []string{"Steps/1"})
	}
	deadline := time.Now().Add(10 * time.Second)
	for s.Checkpoint() < last.Seq {
		if time.Now().After(deadline) {
			t.Fatalf("evidence-only events never applied: checkpoint %d, want %d", s.Checkpoint(), last.Seq)
		}
		time.Sleep(time.Millisecond)
	}
	last = l.refer(ruleA, []string{"Steps/1"})
	if err := s.WaitFor(testCtx(t), last.Seq); err != nil {
		t.Fatalf("wait for a lingering event: %v", err)
	}
	l.refer(ruleA, []string{"Steps/1"})
	pub := l.publish(ruleB, content.KindRule, "py/B.md", "## New\nbody\n")
	if err := s.WaitFor(testCtx(t), pub.Seq); err != nil {
		t.Fatalf("wait for a catalog event after a lingering one: %v", err)
	}
	if got := usageOf(s, ruleA); got != 7 {
		t.Fatalf("got %d refs of %s, want 7", got, ruleA)
	}
}

func usageOf(s *projections.Store, id string) uint64 {
	for _, u := range s.Usage() {
		if u.ID == id {
			return u.Refs
		}
	}
	return 0
}

package projections_test

import (
	"context"
	"errors"
	"testing"

	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections"
)

// flakyLog is a Log whose replays fail from a sequence on.
type flakyLog struct {
	events.Log
	failFrom uint64
}

var errFlaky = errors.New("replay failed")

func (l flakyLog) Replay(ctx context.Context, from uint64, fn func(events.Event) error) error {
	return l.Log.Replay(ctx, from, func(ev events.Event) error {
		if ev.Seq >= l.failFrom {
			return errFlaky
		}
		return fn(ev)
	})
}

// shortLog is a Log that hides the event at one sequence from replays
// that start after it, as a log with a hole would.
type shortLog struct {
	events.Log
	hole uint64
}

func (l shortLog) Replay(ctx context.Context, from uint64, fn func(events.Event) error) error {
	return l.Log.Replay(ctx, from, func(ev events.Event) error {
		if ev.Seq == l.hole {
			return nil
		}
		return fn(ev)
	})
}

// TestStore_CatchUp covers the parallel path that long backlogs take.
func TestStore_CatchUp(t *testing.T) {
	projections.SetChunkSize(t, 16)
	l := busyLedger(t, 60)
	evs := l.all()
	ref := openMem(t)
	apply(t, ref, evs...)
	want := digest(t, ref)

	t.Run("Rebuild", func(t *testing.T) {
		var last [2]uint64
		s, err := projections.Rebuild(testCtx(t), l.log, "/db", projections.Options{FS: vfs.NewMem(), BatchSize: 5},
			func(done, total uint64) { last = [2]uint64{done, total} })
		if err != nil {
			t.Fatal(err)
		}
		defer closeQuietly(s)
		if got := digest(t, s); got != want {
			t.Errorf("digest: got %s, want %s", got, want)
		}
		if n := uint64(len(evs)); last != [2]uint64{n, n} {
			t.Errorf("last progress: got %v, want [%d %d]", last, n, n)
		}
	})
	t.Run("RunFromCheckpoint", func(t *testing.T) {
		s := openMem(t)
		apply(t, s, evs[:37]...)
		running(t, s, l.log)
		if err := s.WaitFor(testCtx(t), uint64(len(evs))); err != nil {
			t.Fatal(err)
		}
		if got := digest(t, s); got != want {
			t.Errorf("digest: got %s, want %s", got, want)
		}
	})
	t.Run("ReplayError", func(t *testing.T) {
		_, err := projections.Rebuild(testCtx(t), flakyLog{l.log, 100}, "/db", projections.Options{FS: vfs.NewMem()}, nil)
		if !errors.Is(err, errFlaky) {
			t.Errorf("got %v, want the replay error", err)
		}
	})
	t.Run("Hole", func(t *testing.T) {
		_, err := projections.Rebuild(testCtx(t), shortLog{l.log, 70}, "/db", projections.Options{FS: vfs.NewMem()}, nil)
		if !errors.Is(err, projections.ErrGap) {
			t.Errorf("got %v, want ErrGap", err)
		}
	})
}

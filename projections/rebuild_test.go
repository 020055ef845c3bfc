package projections_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections"
)

// busyLedger appends n rounds of mixed events, with drafts and catalog
// changes between the refs.
func busyLedger(tb testing.TB, rounds int) *ledger {
	tb.Helper()
	l := newLedger(tb)
	mixed(l)
	for i := range rounds {
		sid := inSession(fmt.Sprintf("s%d", i%7))
		id := fmt.Sprintf("p-%032x", i%11)
		l.publish(id, content.KindRule, fmt.Sprintf("g%d/R%d.md", i%3, i%11), fmt.Sprintf("## Steps\n- a\n- b%d\n", i))
		l.refer(id, []string{"Steps/1", "Steps/2"}, sid, took(int64(i)))
		l.add(events.TypeLoad, events.LoadData{}, sid)
		l.add(events.TypeDraftUpdate, events.DraftData{Resource: "rule", ID: id, Body: fmt.Sprint(i)}, sid)
		if i%4 == 0 {
			l.add(events.TypeDraftDiscard, events.DraftData{Resource: "rule", ID: id}, sid)
		}
		if i%9 == 0 {
			l.add(events.TypeCatalogRemove, events.RemoveData{ID: id, Kind: "rule"})
		}
		l.refer(id, []string{"Steps/1"}, sid, failed("stale_rule_hash"))
	}
	return l
}

func rebuild(tb testing.TB, log events.Log, fs vfs.FS, dir string, opts projections.Options) *projections.Store {
	tb.Helper()
	opts.FS = fs
	s, err := projections.Rebuild(testCtx(tb), log, dir, opts, nil)
	if err != nil {
		tb.Fatalf("rebuild: %v", err)
	}
	tb.Cleanup(func() { closeQuietly(s) })
	return s
}

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

// shortLog is a Log that hides the event at one sequence, as a log with a
// hole would.
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

func TestRebuild(t *testing.T) {
	l := busyLedger(t, 200)
	total := uint64(len(l.all()))

	t.Run("Deterministic", func(t *testing.T) {
		a := rebuild(t, l.log, vfs.NewMem(), "/a", projections.Options{BatchSize: 64})
		b := rebuild(t, l.log, vfs.NewMem(), "/b", projections.Options{})
		if da, db := digest(t, a), digest(t, b); da != db {
			t.Errorf("got digests %s and %s, want them equal", da, db)
		}
		if got := a.Checkpoint(); got != total {
			t.Errorf("checkpoint: got %d, want %d", got, total)
		}
	})
	t.Run("IncrementalEqualsRebuild", func(t *testing.T) {
		want := digest(t, rebuild(t, l.log, vfs.NewMem(), "/db", projections.Options{}))
		evs := l.all()
		for seed := range uint64(3) {
			rng := rand.New(rand.NewPCG(seed, 1))
			s := openMem(t)
			for i := 0; i < len(evs); {
				n := 1 + rng.IntN(40)
				apply(t, s, evs[i:min(i+n, len(evs))]...)
				i += n
			}
			if got := digest(t, s); got != want {
				t.Errorf("seed %d: got %s, want %s", seed, got, want)
			}
		}
	})
	t.Run("DigestSeesEveryEvent", func(t *testing.T) {
		evs := l.all()
		a, b := openMem(t), openMem(t)
		apply(t, a, evs...)
		apply(t, b, evs[:len(evs)-1]...)
		if da, db := digest(t, a), digest(t, b); da == db {
			t.Errorf("got equal digests %s for different stores, want them to differ", da)
		}
	})
	t.Run("ReplacesExistingStore", func(t *testing.T) {
		fs := vfs.NewMem()
		s, err := projections.Open("/db", projections.Options{FS: fs})
		if err != nil {
			t.Fatal(err)
		}
		other := newLedger(t)
		apply(t, s, other.publish(ruleGone, content.KindRule, "zz/Z.md", "z"))
		closeQuietly(s)
		s = rebuild(t, l.log, fs, "/db", projections.Options{})
		if _, err := s.Object(ruleGone); !errors.Is(err, projections.ErrNotFound) {
			t.Errorf("got %v, want the old rows gone", err)
		}
		if got, want := digest(t, s), digest(t, rebuild(t, l.log, vfs.NewMem(), "/x", projections.Options{})); got != want {
			t.Errorf("got %s, want %s", got, want)
		}
	})
	t.Run("LeavesFileInPlace", func(t *testing.T) {
		fs := vfs.NewMem()
		writeFile(t, fs, "/db", "not a database")
		_, err := projections.Rebuild(testCtx(t), l.log, "/db", projections.Options{FS: fs}, nil)
		if !errors.Is(err, projections.ErrCorrupt) {
			t.Fatalf("got %v, want ErrCorrupt", err)
		}
		if info, err := fs.Stat("/db"); err != nil || info.IsDir() {
			t.Errorf("got %v, %v, want the file left alone", info, err)
		}
	})
	t.Run("LeavesForeignFolder", func(t *testing.T) {
		fs := vfs.NewMem()
		if err := fs.MkdirAll("/home", 0o755); err != nil {
			t.Fatal(err)
		}
		writeFile(t, fs, "/home/notes.txt", "precious")
		if _, err := projections.Rebuild(testCtx(t), l.log, "/home", projections.Options{FS: fs}, nil); err == nil {
			t.Fatal("got nil, want a refusal")
		}
		if _, err := fs.Stat("/home/notes.txt"); err != nil {
			t.Errorf("got %v, want the file kept", err)
		}
	})
	t.Run("ReplacesCorruptStore", func(t *testing.T) {
		fs := vfs.NewMem()
		closeQuietly(openAt(t, fs, "/db", projections.Options{}))
		names, _ := fs.List("/db")
		for _, name := range names {
			if name != "LOCK" {
				writeFile(t, fs, "/db/"+name, "garbage")
			}
		}
		if s := rebuild(t, l.log, fs, "/db", projections.Options{}); s.Checkpoint() != total {
			t.Errorf("checkpoint: got %d, want %d", s.Checkpoint(), total)
		}
	})
	t.Run("Progress", func(t *testing.T) {
		var calls [][2]uint64
		s, err := projections.Rebuild(testCtx(t), l.log, "/db", projections.Options{FS: vfs.NewMem(), BatchSize: 100},
			func(done, total uint64) { calls = append(calls, [2]uint64{done, total}) })
		if err != nil {
			t.Fatal(err)
		}
		defer closeQuietly(s)
		if len(calls) < 3 || calls[0] != [2]uint64{0, total} || calls[len(calls)-1] != [2]uint64{total, total} {
			t.Errorf("got progress %v, want 0 to %d of %d", calls, total, total)
		}
	})
	t.Run("ErrLocked", func(t *testing.T) {
		fs := vfs.NewMem()
		s := openAt(t, fs, "/db", projections.Options{})
		_, err := projections.Rebuild(testCtx(t), l.log, "/db", projections.Options{FS: fs}, nil)
		if !errors.Is(err, projections.ErrLocked) {
			t.Fatalf("got %v, want ErrLocked", err)
		}
		if _, err := s.Digest(); err != nil {
			t.Errorf("the open store broke: %v", err)
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
	// A rebuild writes without pebble's log (a stopped one starts again):
	// one that stops midway leaves a store that opens, holds a consistent
	// prefix (its checkpoint with exactly the rows before it) and catches
	// up to the same digest. (Batches of 2 make the rebuild commit several
	// folds before it stops.)
	t.Run("StoppedMidwayLeavesAConsistentPrefix", func(t *testing.T) {
		want := digest(t, rebuild(t, l.log, vfs.NewMem(), "/want", projections.Options{}))
		fs := vfs.NewMem()
		if _, err := projections.Rebuild(context.Background(), flakyLog{Log: l.log, failFrom: total / 2}, "/db", projections.Options{FS: fs, BatchSize: 2}, nil); !errors.Is(err, errFlaky) {
			t.Fatalf("got %v, want the log's failure", err)
		}
		s, err := projections.Open("/db", projections.Options{FS: fs})
		if err != nil {
			t.Fatalf("open after a stopped rebuild: %v", err)
		}
		defer s.Close()
		from := s.Checkpoint()
		if from >= total/2 {
			t.Fatalf("checkpoint %d after a rebuild stopped before %d", from, total/2)
		}
		apply(t, s, l.all()[from:]...)
		if got := digest(t, s); got != want {
			t.Errorf("got %s after catching up from %d, want %s", got, from, want)
		}
	})
	t.Run("ContextEnds", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := projections.Rebuild(ctx, l.log, "/db", projections.Options{FS: vfs.NewMem()}, nil); !errors.Is(err, context.Canceled) {
			t.Errorf("got %v, want context.Canceled", err)
		}
	})
}

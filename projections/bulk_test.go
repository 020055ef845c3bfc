package projections_test

import (
	"fmt"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/internal/gcpace"
	"github.com/clumsies/clumsies/projections"
)

// incremental returns the digest of the events of l applied one at a
// time, as a serving process applies them as they arrive.
func incremental(t *testing.T, l *ledger) string {
	t.Helper()
	s := openMem(t)
	for _, ev := range l.all() {
		apply(t, s, ev)
	}
	return digest(t, s)
}

// commits rebuilds the events of l with opts and returns the checkpoint of
// every commit the rebuild made, and the new store's digest.
func commits(t *testing.T, l *ledger, opts projections.Options) ([]uint64, string) {
	t.Helper()
	var at []uint64
	opts.CommitFault = func(checkpoint uint64) error {
		at = append(at, checkpoint)
		return nil
	}
	s := rebuild(t, l.log, vfs.NewMem(), "/db", opts)
	return at, digest(t, s)
}

// A rebuild folds many batches into one commit: it commits once per 64
// batches, and the store it leaves is the one applying every event on its
// own gives, byte for byte.
func TestRebuild_FoldsBatches(t *testing.T) {
	l := busyLedger(t, 300)
	total := uint64(len(l.all()))
	want := incremental(t, l)
	for _, size := range []int{1, 3, 1000} {
		t.Run(fmt.Sprintf("BatchSize=%d", size), func(t *testing.T) {
			at, got := commits(t, l, projections.Options{BatchSize: size})
			if got != want {
				t.Errorf("digest %s, want %s (events applied one at a time)", got, want)
			}
			fold := uint64(64 * size)
			var expect []uint64
			for c := fold; c < total; c += fold {
				expect = append(expect, c)
			}
			expect = append(expect, total)
			if !slices.Equal(at, expect) {
				t.Errorf("commits at %v, want %v (one per %d events, and the rest)", at, expect, fold)
			}
		})
	}
}

// The fold is bounded by the bytes of the events too (bodies wait in
// memory for the commit), at a whole batch at least.
func TestRebuild_FoldIsBoundedByBytes(t *testing.T) {
	l := newLedger(t)
	body := "## Steps\n- " + strings.Repeat("x", 3<<20) + "\n"
	for i := range 12 {
		l.publish(fmt.Sprintf("p-%032x", i), content.KindRule, fmt.Sprintf("g/R%d.md", i), body+fmt.Sprint(i))
		l.refer(fmt.Sprintf("p-%032x", i), []string{"Steps/1"})
	}
	want := incremental(t, l)
	at, got := commits(t, l, projections.Options{BatchSize: 2})
	if got != want {
		t.Errorf("digest %s, want %s (events applied one at a time)", got, want)
	}
	// 12 bodies of 3 MiB in batches of a body and a ref: a commit once
	// 16 MiB are folded, after the sixth body.
	if want := []uint64{12, 24}; !slices.Equal(at, want) {
		t.Errorf("commits at %v, want %v", at, want)
	}
}

// A rebuild paces the collector for its replay (gcpace.Bulk) and gives
// the process its own setting back when it ends.
func TestRebuild_PacesTheCollector(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	before := debug.SetGCPercent(100)
	t.Cleanup(func() { debug.SetGCPercent(before) })
	l := busyLedger(t, 20)
	var during []int
	s, err := projections.Rebuild(testCtx(t), l.log, "/db", projections.Options{FS: vfs.NewMem(), BatchSize: 10}, func(done, total uint64) {
		p := debug.SetGCPercent(100)
		debug.SetGCPercent(p)
		during = append(during, p)
	})
	if err != nil {
		t.Fatal(err)
	}
	defer closeQuietly(s)
	for _, p := range during {
		if p != gcpace.BulkPercent {
			t.Fatalf("GOGC during the rebuild: %v, want %d throughout", during, gcpace.BulkPercent)
		}
	}
	if p := debug.SetGCPercent(before); p != 100 || len(during) < 2 {
		t.Errorf("GOGC after the rebuild %d (want 100 back), %d progress reports", p, len(during))
	}
}

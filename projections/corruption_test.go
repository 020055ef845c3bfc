package projections_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/projections"
)

// bigStore writes a store in dir large enough to have table files (.sst)
// and returns its ledger.
func bigStore(tb testing.TB, dir string) *ledger {
	tb.Helper()
	l := newLedger(tb)
	s := openAt(tb, vfs.Default, dir, projections.Options{})
	for i := range 400 {
		apply(tb, s, l.publish(fmt.Sprintf("p-%032x", i), content.KindRule, fmt.Sprintf("a/R%d.md", i), strings.Repeat("x", 30000)))
	}
	if err := s.Close(); err != nil {
		tb.Fatal(err)
	}
	return l
}

// damage flips bytes all over every table file of dir.
func damage(tb testing.TB, dir string) {
	tb.Helper()
	ssts, _ := filepath.Glob(filepath.Join(dir, "*.sst"))
	if len(ssts) == 0 {
		tb.Fatal("the store has no table file to damage")
	}
	for _, f := range ssts {
		b, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		for i := 100; i < len(b)-100; i += 997 {
			b[i] ^= 0xff
		}
		if err := os.WriteFile(f, b, 0o644); err != nil {
			tb.Fatal(err)
		}
	}
}

// TestStore_DamagedTables damages the table files of a store: opening or
// reading it fails with ErrCorrupt (the process goes on: no panic in
// pebble's goroutines), and a rebuild from the ledger restores it.
func TestStore_DamagedTables(t *testing.T) {
	dir := t.TempDir()
	l := bigStore(t, dir)
	damage(t, dir)
	s, err := projections.Open(dir, projections.Options{})
	if err == nil {
		_, err = s.Object(fmt.Sprintf("p-%032x", 5))
		for i := 0; err == nil && i < 400; i++ {
			_, err = s.Object(fmt.Sprintf("p-%032x", i))
		}
		s.Close()
	}
	if !errors.Is(err, projections.ErrCorrupt) {
		t.Fatalf("reading a damaged store: got %v, want ErrCorrupt", err)
	}
	s, err = projections.Rebuild(context.Background(), l.log, dir, projections.Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i := range 400 {
		if o, err := s.Object(fmt.Sprintf("p-%032x", i)); err != nil || len(o.Body) != 30000 {
			t.Fatalf("object %d after the rebuild: %v", i, err)
		}
	}
}

// TestRebuild_FailureKeepsTheOldReadModels stops a rebuild half-way: the
// read models that were there are still there, untouched.
func TestRebuild_FailureKeepsTheOldReadModels(t *testing.T) {
	dir := t.TempDir()
	l := bigStore(t, dir)
	s := openAt(t, vfs.Default, dir, projections.Options{})
	want := digest(t, s)
	s.Close()

	ctx, cancel := context.WithCancel(context.Background())
	_, err := projections.Rebuild(ctx, l.log, dir, projections.Options{BatchSize: 50}, func(done, _ uint64) {
		if done >= 100 {
			cancel()
		}
	})
	if err == nil {
		t.Fatal("the interrupted rebuild succeeded")
	}
	s = openAt(t, vfs.Default, dir, projections.Options{})
	if got := digest(t, s); got != want {
		t.Fatalf("after a failed rebuild the read models have digest %s, want the old %s", got, want)
	}
}

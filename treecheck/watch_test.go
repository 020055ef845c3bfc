package treecheck

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/clumsies/clumsies/internal/notifytest"
)

// checkWith opens the store, asks w what changed since the snapshot's
// point and checks with its answer.
func checkWith(t *testing.T, state, root string, w *Watcher) ([]Change, Dirty) {
	t.Helper()
	s, err := Open(state, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	d := w.Since(s.Point())
	ch, err := s.CheckSince(root, []string{".clumsies/state"}, d)
	if err != nil {
		t.Fatal(err)
	}
	return ch, d
}

// With a watcher, a check stats only what changed and finds exactly what
// a walk would: modified, created (in a new folder too), deleted files
// and removed folders.
func TestWatcher_ChecksWhatChanged(t *testing.T) {
	root, state := t.TempDir(), t.TempDir()
	write(t, root, "src/a.go", "a")
	write(t, root, "src/old/b.go", "b")
	write(t, root, "keep.txt", "k")
	w, err := NewWatcher(root, []string{".clumsies/state"})
	notifytest.Require(t, err)
	defer w.Close()
	if ch, d := checkWith(t, state, root, w); len(ch) != 0 || d.Complete {
		t.Fatalf("first check: %v (complete %v), want a baseline walk", ch, d.Complete)
	}
	write(t, root, "src/a.go", "a2")
	write(t, root, "src/new/deep/c.go", "c")
	os.RemoveAll(filepath.Join(root, "src", "old"))
	write(t, root, ".clumsies/state/x", "ignored")
	write(t, root, "node_modules/p/i.js", "ignored")
	ch, d := checkWith(t, state, root, w)
	if !d.Complete {
		t.Fatal("second check walked: the watcher's answer was not complete")
	}
	if got, want := paths(ch), []string{"src/a.go", "src/new/deep/c.go", "src/old/b.go"}; !slices.Equal(got, want) {
		t.Fatalf("changes %v, want %v", got, want)
	}
	if ch, d := checkWith(t, state, root, w); len(ch) != 0 || !d.Complete {
		t.Fatalf("third check: %v (complete %v), want nothing, from the watcher", ch, d.Complete)
	}
	// A file written in a folder made since, after its watch was added.
	write(t, root, "src/new/deep/d.go", "d")
	if ch, _ := checkWith(t, state, root, w); !slices.Equal(paths(ch), []string{"src/new/deep/d.go"}) {
		t.Fatalf("changes %v, want the new file in the new folder", paths(ch))
	}
}

// A point from another epoch (another watcher, an overflow) is answered
// incompletely: the caller walks.
func TestWatcher_OtherEpochWalks(t *testing.T) {
	w, err := NewWatcher(t.TempDir(), nil)
	notifytest.Require(t, err)
	defer w.Close()
	if d := w.Since("elsewhere", 3); d.Complete {
		t.Fatalf("answer for another epoch: %+v, want incomplete", d)
	}
	d := w.Since("", 0)
	if d2 := w.Since(d.Epoch, d.Seq); !d2.Complete || len(d2.Paths) != 0 {
		t.Fatalf("answer for its own point: %+v", d2)
	}
}

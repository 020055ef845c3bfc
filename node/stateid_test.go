package node

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// stateOf returns a stateID of the files of a made-up state folder.
func stateOf(tb testing.TB, dir string) *stateID {
	tb.Helper()
	s := newStateID()
	for _, p := range []string{dir, filepath.Join(dir, "owner.lock"), filepath.Join(dir, "jetstream")} {
		fi, err := os.Stat(p)
		if err != nil {
			tb.Fatal(err)
		}
		s.paths, s.infos = append(s.paths, p), append(s.infos, fi)
	}
	return s
}

func makeState(tb testing.TB, dir string) {
	tb.Helper()
	if err := os.MkdirAll(filepath.Join(dir, "jetstream"), 0o700); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "owner.lock"), nil, 0o600); err != nil {
		tb.Fatal(err)
	}
}

// TestStateID: a state folder moved away and back is still the one
// opened; one removed and made again is not, and stays failed. The lock
// file is held open, as the owner's lock holds it: a removed file's inode
// is then not given to a new one.
func TestStateID(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	makeState(t, dir)
	s := stateOf(t, dir)
	lock, err := os.Open(filepath.Join(dir, "owner.lock"))
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if err := s.check(); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(dir, dir+".away"); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(dir+".away", dir); err != nil {
		t.Fatal(err)
	}
	if err := s.check(); err != nil {
		t.Fatalf("moved away and back: %v", err)
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	makeState(t, dir)
	err = s.check()
	if !errors.Is(err, errStateReplaced) || !errors.Is(err, ErrUnavailable) {
		t.Fatalf("removed and made again: %v, want errStateReplaced and ErrUnavailable", err)
	}
	select {
	case <-s.failed:
	default:
		t.Fatal("failed is not closed")
	}
}

// BenchmarkStateCheck is the cost a check adds to an acknowledgement.
func BenchmarkStateCheck(b *testing.B) {
	dir := filepath.Join(b.TempDir(), "state")
	makeState(b, dir)
	s := stateOf(b, dir)
	for b.Loop() {
		if err := s.check(); err != nil {
			b.Fatal(err)
		}
	}
}

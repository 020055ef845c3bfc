package projections_test

import (
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/clumsies/clumsies/projections"
)

// writeFile writes data to name on fs, replacing what is there.
func writeFile(tb testing.TB, fs vfs.FS, name, data string) {
	tb.Helper()
	f, err := fs.Create(name, vfs.WriteCategoryUnspecified)
	if err != nil {
		tb.Fatalf("create %s: %v", name, err)
	}
	if _, err := f.Write([]byte(data)); err != nil {
		tb.Fatalf("write %s: %v", name, err)
	}
	if err := f.Close(); err != nil {
		tb.Fatalf("close %s: %v", name, err)
	}
}

// wantRebuildError checks that err is sentinel and tells the user which
// store is broken and how to recreate it.
func wantRebuildError(tb testing.TB, err error, sentinel error, dir string) {
	tb.Helper()
	if !errors.Is(err, sentinel) {
		tb.Fatalf("got %v, want %v", err, sentinel)
	}
	if msg := err.Error(); !strings.Contains(msg, dir) || !strings.Contains(msg, "clumsies rebuild") {
		tb.Errorf("got %q, want it to name %s and `clumsies rebuild`", msg, dir)
	}
}

func TestOpen(t *testing.T) {
	t.Run("OnDisk", func(t *testing.T) {
		dir := t.TempDir() + "/state/projections"
		l := newLedger(t)
		s, err := projections.Open(dir, projections.Options{})
		if err != nil {
			t.Fatal(err)
		}
		apply(t, s, mixed(l)...)
		want := digest(t, s)
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		s, err = projections.Open(dir, projections.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer closeQuietly(s)
		if got := digest(t, s); got != want {
			t.Errorf("digest after reopen: got %s, want %s", got, want)
		}
	})
	t.Run("FileInPlace", func(t *testing.T) {
		fs := vfs.NewMem()
		writeFile(t, fs, "/db", "garbage")
		_, err := projections.Open("/db", projections.Options{FS: fs})
		wantRebuildError(t, err, projections.ErrCorrupt, "/db")
	})
	t.Run("CorruptManifest", func(t *testing.T) {
		fs := vfs.NewMem()
		s, err := projections.Open("/db", projections.Options{FS: fs})
		if err != nil {
			t.Fatal(err)
		}
		apply(t, s, mixed(newLedger(t))...)
		closeQuietly(s)
		names, _ := fs.List("/db")
		corrupted := 0
		for _, name := range names {
			if strings.HasPrefix(name, "MANIFEST-") {
				writeFile(t, fs, "/db/"+name, strings.Repeat("garbage ", 100))
				corrupted++
			}
		}
		if corrupted == 0 {
			t.Fatalf("found no MANIFEST in %v", names)
		}
		_, err = projections.Open("/db", projections.Options{FS: fs})
		wantRebuildError(t, err, projections.ErrCorrupt, "/db")
	})
	t.Run("ErrIncompatible", func(t *testing.T) {
		fs := vfs.NewMem()
		closeQuietly(openAt(t, fs, "/db", projections.Options{}))
		db, err := pebble.Open("/db", &pebble.Options{FS: fs, Logger: quietPebble{t}})
		if err != nil {
			t.Fatal(err)
		}
		if err := db.Set([]byte("meta/schema"), []byte{0, 0, 0, 0, 0, 0, 0, 99}, pebble.Sync); err != nil {
			t.Fatal(err)
		}
		db.Close()
		_, err = projections.Open("/db", projections.Options{FS: fs})
		wantRebuildError(t, err, projections.ErrIncompatible, "/db")
	})
	t.Run("ForeignDatabase", func(t *testing.T) {
		fs := vfs.NewMem()
		db, err := pebble.Open("/db", &pebble.Options{FS: fs, Logger: quietPebble{t}})
		if err != nil {
			t.Fatal(err)
		}
		db.Set([]byte("someone else's"), []byte("data"), pebble.Sync)
		db.Close()
		_, err = projections.Open("/db", projections.Options{FS: fs})
		wantRebuildError(t, err, projections.ErrIncompatible, "/db")
	})
	// A row of no read model, or one a model does not know under its
	// prefix, is refused: the store was written by something else.
	t.Run("UnknownRow", func(t *testing.T) {
		for _, key := range []string{"zz/stray", "m/x/1", "u/x", "meta/what"} {
			fs := vfs.NewMem()
			s := openAt(t, fs, "/db", projections.Options{})
			apply(t, s, mixed(newLedger(t))...)
			closeQuietly(s)
			db, err := pebble.Open("/db", &pebble.Options{FS: fs, Logger: quietPebble{t}})
			if err != nil {
				t.Fatal(err)
			}
			if err := db.Set([]byte(key), encodeU64(1), pebble.Sync); err != nil {
				t.Fatal(err)
			}
			db.Close()
			_, err = projections.Open("/db", projections.Options{FS: fs})
			wantRebuildError(t, err, projections.ErrCorrupt, "/db")
			if err != nil && !strings.Contains(err.Error(), key) {
				t.Errorf("got %q, want it to name the row %q", err, key)
			}
		}
	})
	t.Run("ErrLocked", func(t *testing.T) {
		dir := t.TempDir()
		s, err := projections.Open(dir, projections.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer closeQuietly(s)
		_, err = projections.Open(dir, projections.Options{})
		if !errors.Is(err, projections.ErrLocked) || !strings.Contains(err.Error(), dir) {
			t.Errorf("got %v, want ErrLocked naming %s", err, dir)
		}
	})
	t.Run("ReleasesLockOnClose", func(t *testing.T) {
		fs := vfs.NewMem()
		closeQuietly(openAt(t, fs, "/db", projections.Options{}))
		openAt(t, fs, "/db", projections.Options{})
	})
	t.Run("ReleasesLockOnFailure", func(t *testing.T) {
		fs := vfs.NewMem()
		closeQuietly(openAt(t, fs, "/db", projections.Options{}))
		db, _ := pebble.Open("/db", &pebble.Options{FS: fs, Logger: quietPebble{t}})
		db.Set([]byte("meta/schema"), []byte{1}, pebble.Sync)
		db.Close()
		if _, err := projections.Open("/db", projections.Options{FS: fs}); err == nil {
			t.Fatal("got nil, want an error")
		}
		s, err := projections.Rebuild(testCtx(t), newLedger(t).log, "/db", projections.Options{FS: fs}, nil)
		if err != nil {
			t.Fatalf("rebuild after a failed open: %v", err)
		}
		closeQuietly(s)
	})
}

func encodeU64(v uint64) []byte { return binary.BigEndian.AppendUint64(nil, v) }

// quietPebble keeps pebble's informational messages out of the test output.
type quietPebble struct{ tb testing.TB }

func (quietPebble) Infof(string, ...any)        {}
func (q quietPebble) Errorf(f string, a ...any) { q.tb.Logf(f, a...) }
func (q quietPebble) Fatalf(f string, a ...any) { q.tb.Fatalf(f, a...) }

package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/vfs"
)

// writeStore makes a pebble store on disk in dir whose row "v" is v.
func writeStore(t *testing.T, dir, v string) {
	t.Helper()
	db, err := pebble.Open(dir, &pebble.Options{Logger: quietLogger{}})
	if err != nil {
		t.Fatal(err)
	}
	if err := errors.Join(db.Set([]byte("v"), []byte(v), pebble.Sync), db.Close()); err != nil {
		t.Fatal(err)
	}
}

// storeValue opens the store in dir, as a store opens it, and returns
// its row "v".
func storeValue(t *testing.T, dir string) string {
	t.Helper()
	db, err := pebble.Open(dir, &pebble.Options{Logger: quietLogger{}, ErrorIfNotExists: true})
	if err != nil {
		t.Fatalf("open %s: %v", dir, err)
	}
	defer db.Close()
	v, closer, err := db.Get([]byte("v"))
	if err != nil {
		t.Fatalf("read %s: %v", dir, err)
	}
	defer closer.Close()
	return string(v)
}

// failRename is the disk, but renaming the path from fails.
type failRename struct {
	vfs.FS
	from string
}

var errInjected = errors.New("injected")

func (f failRename) Rename(from, to string) error {
	if from == f.from {
		return errInjected
	}
	return f.FS.Rename(from, to)
}

// absent fails t if any of paths exists.
func absent(t *testing.T, paths ...string) {
	t.Helper()
	for _, p := range paths {
		if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s is there (%v), want it gone", p, err)
		}
	}
}

// TestRebuildBeside: the new store replaces the old one only once it is
// complete; a failure at any step leaves the old store usable in dir and
// no leftover beside it.
func TestRebuildBeside(t *testing.T) {
	fillNew := func(_ context.Context, next string) error { writeStore(t, next, "new"); return nil }
	for _, tc := range []struct {
		name string
		fs   func(dir string) vfs.FS
		fill func(dir string) func(context.Context, string) error
		want string // the store's row after the rebuild
	}{
		{"Swaps", func(string) vfs.FS { return vfs.Default }, func(string) func(context.Context, string) error { return fillNew }, "new"},
		{"FillFails", func(string) vfs.FS { return vfs.Default }, func(dir string) func(context.Context, string) error {
			return func(ctx context.Context, next string) error {
				writeStore(t, next, "half")
				if got := storeValue(t, dir); got != "old" {
					t.Errorf("while the new store fills, the old one reads %q", got)
				}
				return errInjected
			}
		}, "old"},
		{"MoveAsideFails", func(dir string) vfs.FS { return failRename{vfs.Default, dir} },
			func(string) func(context.Context, string) error { return fillNew }, "old"},
		{"MoveInFails", func(dir string) vfs.FS { return failRename{vfs.Default, dir + ".new"} },
			func(string) func(context.Context, string) error { return fillNew }, "old"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "db")
			writeStore(t, dir, "old")
			// What a rebuild that crashed left beside it.
			writeStore(t, dir+".new", "stale")
			writeStore(t, dir+".old", "older")
			err := RebuildBeside(context.Background(), tc.fs(dir), dir, tc.fill(dir))
			if tc.want == "new" && err != nil {
				t.Fatal(err)
			}
			if tc.want == "old" && !errors.Is(err, errInjected) {
				t.Fatalf("error %v, want the injected one", err)
			}
			if got := storeValue(t, dir); got != tc.want {
				t.Errorf("after the rebuild the store reads %q, want %q", got, tc.want)
			}
			absent(t, dir+".new", dir+".old")
		})
	}
}

// quietLogger drops pebble's messages.
type quietLogger struct{}

func (quietLogger) Infof(string, ...any)  {}
func (quietLogger) Errorf(string, ...any) {}
func (quietLogger) Fatalf(format string, args ...any) {
	panic(fmt.Sprintf(format, args...))
}

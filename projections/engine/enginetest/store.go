package enginetest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/clumsies/clumsies/projections/engine"
)

// memDB opens an empty pebble database in memory, closed when the test
// ends.
func memDB(tb testing.TB) *pebble.DB {
	tb.Helper()
	db, err := pebble.Open("", &pebble.Options{FS: vfs.NewMem(), Logger: quiet{}})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

// quiet drops pebble's messages.
type quiet struct{}

func (quiet) Infof(string, ...any)  {}
func (quiet) Errorf(string, ...any) {}
func (quiet) Fatalf(format string, args ...any) {
	panic(fmt.Sprintf(format, args...))
}

// commit commits the rows reg's models touched, with no meta row, as the
// store commits them with its checkpoint.
func commit[T any](db *pebble.DB, reg *engine.Registry[T], sorted *engine.SortedRows, check func() error) error {
	return reg.Commit(db, sorted, func(*engine.RowWriter) {}, check)
}

func mustCommit[T any](tb testing.TB, db *pebble.DB, reg *engine.Registry[T], sorted *engine.SortedRows) {
	tb.Helper()
	if err := commit(db, reg, sorted, nil); err != nil {
		tb.Fatalf("commit: %v", err)
	}
}

// dump returns every row of db (engine.Dump).
func dump(tb testing.TB, db *pebble.DB) string {
	tb.Helper()
	var b strings.Builder
	if err := engine.Dump(db, &b); err != nil {
		tb.Fatal(err)
	}
	return b.String()
}

// keys returns every key of db, in order.
func keys(tb testing.TB, db *pebble.DB) []string {
	tb.Helper()
	it, err := db.NewIter(nil)
	if err != nil {
		tb.Fatal(err)
	}
	defer it.Close()
	var out []string
	for it.First(); it.Valid(); it.Next() {
		out = append(out, string(it.Key()))
	}
	if err := it.Error(); err != nil {
		tb.Fatal(err)
	}
	return out
}

// diff lists the rows of dump got that want lacks (+) and those of want
// that got lacks (-), at most 20 of them.
func diff(got, want string) string {
	in := func(s string) map[string]bool {
		m := map[string]bool{}
		for _, l := range strings.Split(s, "\n") {
			m[l] = true
		}
		return m
	}
	g, w := in(got), in(want)
	var out []string
	for _, l := range strings.Split(got, "\n") {
		if !w[l] {
			out = append(out, "+ "+l)
		}
	}
	for _, l := range strings.Split(want, "\n") {
		if !g[l] {
			out = append(out, "- "+l)
		}
	}
	if len(out) > 20 {
		out = append(out[:20], fmt.Sprintf("... and %d more", len(out)-20))
	}
	return strings.Join(out, "\n")
}

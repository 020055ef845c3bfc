package foldtest

import (
	"bytes"
	"fmt"
	"slices"
	"testing"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections/engine"
)

// Folder is a model that names the event types whose payload its Apply
// reads. A model that does not implement it names none.
type Folder interface {
	Folds() []events.Type
}

// Store says how to build and read the items of a store.
type Store[T any] struct {
	// Models returns a new copy of every model of the store over db, in
	// registry order.
	Models func(db *pebble.DB) []engine.Model[T]
	// Type returns the event type of an item.
	Type func(item T) events.Type
	// Strip returns item as the decoder hands it over when no model
	// folds its type: without a payload. It must not change item.
	Strip func(item T) T
}

// Check folds items, which carry the payload of every successful event
// whatever its type, into each model of s, and again into a new copy of
// the model with the payloads of the types it does not name in Folds
// stripped. It fails tb for a model whose rows differ, naming each type
// whose payload alone makes them differ.
func Check[T any](tb testing.TB, s Store[T], items []T) {
	tb.Helper()
	for i, m := range s.Models(memDB(tb)) {
		var named []events.Type
		if f, ok := m.(Folder); ok {
			named = f.Folds()
		}
		undeclared := func(t events.Type) bool { return !slices.Contains(named, t) }
		full := s.rows(tb, i, items, func(events.Type) bool { return false })
		if s.rows(tb, i, items, undeclared) == full {
			continue
		}
		var seen []events.Type
		for _, it := range items {
			t := s.Type(it)
			if !undeclared(t) || slices.Contains(seen, t) {
				continue
			}
			seen = append(seen, t)
			if s.rows(tb, i, items, func(x events.Type) bool { return x == t }) != full {
				tb.Errorf("%T reads the payload of %s, which its Folds does not name: the decoder would not decode it", m, t)
			}
		}
		if len(seen) == 0 {
			tb.Errorf("%T: its rows change when undeclared payloads are stripped, and no single type explains it", m)
		}
	}
}

// rows folds items into model i of a new store, with the payload of
// every type strip reports stripped, commits its rows alone to a new
// database and returns them dumped.
func (s Store[T]) rows(tb testing.TB, i int, items []T, strip func(events.Type) bool) string {
	tb.Helper()
	db := memDB(tb)
	var r engine.Registry[T]
	m := engine.Register(&r, s.Models(db)[i])
	for _, it := range items {
		if strip(s.Type(it)) {
			it = s.Strip(it)
		}
		m.Apply(it)
	}
	if err := r.Commit(db, nil, func(*engine.RowWriter) {}, nil); err != nil {
		tb.Fatalf("commit the rows of %T: %v", m, err)
	}
	var b bytes.Buffer
	if err := engine.Dump(db, &b); err != nil {
		tb.Fatal(err)
	}
	return b.String()
}

// memDB opens a pebble database in memory, closed when the test ends.
func memDB(tb testing.TB) *pebble.DB {
	tb.Helper()
	db, err := pebble.Open("", &pebble.Options{FS: vfs.NewMem(), Logger: quiet{}})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = db.Close() })
	return db
}

// quiet drops pebble's informational messages.
type quiet struct{}

func (quiet) Infof(string, ...any)              {}
func (quiet) Errorf(string, ...any)             {}
func (quiet) Fatalf(format string, args ...any) { panic(fmt.Sprintf(format, args...)) }

package enginetest

import (
	"slices"
	"testing"

	"github.com/cockroachdb/pebble/v2"

	"github.com/clumsies/clumsies/projections/engine"
)

// Declaring says how to build a store's models and read and strip its
// items, for CheckDeclared. K is what a model declares it reads, such as
// an event type.
type Declaring[T any, K comparable] struct {
	// Models returns a new copy of every model of the store over db, in
	// registry order.
	Models func(db *pebble.DB) []engine.Model[T]
	// Declared returns what models declare they read, as the store's
	// decoder derives it (engine.Declared).
	Declared func(models []engine.Model[T]) map[K]bool
	// Kind returns what an item is, in the terms of Declared.
	Kind func(item T) K
	// Strip returns item as the decoder hands it over when no model
	// declares its kind: without a payload. It must not change item.
	Strip func(item T) T
}

// CheckDeclared folds items, which carry the payload of every item
// whatever its kind, into each model of d, and again into a new copy of
// the model with the payloads of the kinds it does not declare stripped.
// It fails tb for a model whose rows differ, naming each kind whose
// payload alone makes them differ: the store's decoder, which decodes
// only the payloads its models declare, would not hand it that payload.
func CheckDeclared[T any, K comparable](tb testing.TB, d Declaring[T, K], items []T) {
	tb.Helper()
	for i, m := range d.Models(memDB(tb)) {
		named := d.Declared([]engine.Model[T]{m})
		full := d.rows(tb, i, items, func(K) bool { return false })
		if d.rows(tb, i, items, func(k K) bool { return !named[k] }) == full {
			continue
		}
		var seen []K
		for _, it := range items {
			k := d.Kind(it)
			if named[k] || slices.Contains(seen, k) {
				continue
			}
			seen = append(seen, k)
			if d.rows(tb, i, items, func(x K) bool { return x == k }) != full {
				tb.Errorf("%T reads the payload of %v, which it does not declare: the decoder would not decode it", m, k)
			}
		}
		if len(seen) == 0 {
			tb.Errorf("%T: its rows change when undeclared payloads are stripped, and no single kind explains it", m)
		}
	}
}

// rows folds items into model i of a new store, with the payload of
// every kind strip reports stripped, commits its rows alone to a new
// database and returns them dumped.
func (d Declaring[T, K]) rows(tb testing.TB, i int, items []T, strip func(K) bool) string {
	tb.Helper()
	db := memDB(tb)
	var reg engine.Registry[T]
	engine.Register(&reg, d.Models(db)[i])
	for _, it := range items {
		if strip(d.Kind(it)) {
			it = d.Strip(it)
		}
		reg.Apply(it)
	}
	mustCommit(tb, db, &reg, nil)
	return dump(tb, db)
}

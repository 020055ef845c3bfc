package enginetest

import (
	"testing"

	"github.com/cockroachdb/pebble/v2"

	"github.com/clumsies/clumsies/projections/engine"
)

// Fixture describes a store's models and the items they fold, for Run.
type Fixture[T any] struct {
	// Open returns every model of the store over db, in registry order,
	// loaded from what db holds as the store loads them when it opens
	// (the registry's Load, and whatever the store does after it). It is
	// called for every open, and must return new models each time. db
	// holds only rows the suite had one model write, never the store's
	// meta rows.
	Open func(tb testing.TB, db *pebble.DB) []engine.Model[T]
	// Meta are the prefixes of the store core's own rows (the
	// checkpoint's among them), which no model's prefix may overlap.
	Meta []string
	// Answer, when set, renders what the store answers its readers from
	// models (as Open returned them, one of them having applied items)
	// over db: two sets of models answer the same when their renderings
	// are equal. The suite compares the answers of models that applied
	// items with those of models loaded from the rows they wrote.
	Answer func(tb testing.TB, db *pebble.DB, models []engine.Model[T]) string
	// Cases are the item sequences every model folds.
	Cases []Case[T]
}

// Case is one sequence of items, in the order the store applies them.
type Case[T any] struct {
	Name string
	// Items returns the sequence; it is called for every fold and must
	// return new items each time, as a model may keep what an item
	// points to.
	Items func(tb testing.TB) []T
}

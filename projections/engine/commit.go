package engine

import (
	"errors"
	"fmt"

	"github.com/cockroachdb/pebble/v2"
)

// State is what a store loads from its pebble database: the Registry of
// its models and its meta rows (the checkpoint among them).
type State[T any] interface {
	// Registry returns the models of the state.
	Registry() *Registry[T]
	// WriteMeta puts the meta rows of the state as it is now into w.
	WriteMeta(w *RowWriter)
}

// Committer commits a store's State and loads it again when a commit
// fails, so that memory matches what pebble holds and no model has to
// undo an Apply (see Model).
type Committer[T any, S State[T]] struct {
	DB *pebble.DB
	// Load reads the state from DB (Registry.Load, and what the store
	// needs besides).
	Load func(db *pebble.DB) (S, error)
}

// ErrReload marks the error of a failed commit after which the state
// could not be loaded again either: the store's memory no longer matches
// its rows, and it must not apply anything more.
var ErrReload = errors.New("reload after a failed commit failed")

// Commit writes the rows st's models touched and st's meta rows in one
// batch (Registry.Commit; sorted and check as there) and returns st. If
// that fails, it returns the error and the state loaded again from DB;
// if that fails too, st and an error wrapping ErrReload.
func (c Committer[T, S]) Commit(st S, sorted *SortedRows, check func() error) (S, error) {
	err := st.Registry().Commit(c.DB, sorted, st.WriteMeta, check)
	if err == nil {
		return st, nil
	}
	loaded, lerr := c.Load(c.DB)
	if lerr != nil {
		return st, fmt.Errorf("%w: %w (%w)", ErrReload, lerr, err)
	}
	return loaded, err
}

// Reload loads the state again from DB, throwing away what was applied
// and not committed (after an Apply that failed half-way).
func (c Committer[T, S]) Reload() (S, error) { return c.Load(c.DB) }

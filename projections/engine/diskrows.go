package engine

import (
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/cockroachdb/pebble/v2"
)

// DiskRows are the rows of a model that keeps them on disk only (a store
// too large to hold in memory, such as the hub's counters) as the model
// applies items: Get sees what the model set or deleted since its last
// Write, then what the store holds. Write puts those rows into a
// RowWriter, in key order, and forgets them, as the Model contract asks;
// Forget drops them unwritten.
//
// A read that fails is kept and handed to the RowWriter by Write, so that
// the commit fails and nothing of the batch is kept.
type DiskRows struct {
	db      pebble.Reader
	pending map[string]pendingRow
	err     error
}

type pendingRow struct {
	v   []byte
	del bool
}

// NewDiskRows returns the rows of a model in db.
func NewDiskRows(db pebble.Reader) *DiskRows {
	return &DiskRows{db: db, pending: map[string]pendingRow{}}
}

// Get returns the value of row k (a copy), ok false if there is none.
func (r *DiskRows) Get(k []byte) (v []byte, ok bool) {
	if p, seen := r.pending[string(k)]; seen {
		return p.v, !p.del
	}
	v, closer, err := r.db.Get(k)
	switch {
	case errors.Is(err, pebble.ErrNotFound):
		return nil, false
	case err != nil:
		r.Fail(fmt.Errorf("read %q: %w", k, err))
		return nil, false
	}
	defer closer.Close()
	return slices.Clone(v), true
}

// Has reports whether row k exists.
func (r *DiskRows) Has(k []byte) bool {
	_, ok := r.Get(k)
	return ok
}

// Set sets row k to v; the rows keep v.
func (r *DiskRows) Set(k, v []byte) {
	if v == nil {
		v = []byte{}
	}
	r.pending[string(k)] = pendingRow{v: v}
}

// Del deletes row k.
func (r *DiskRows) Del(k []byte) { r.pending[string(k)] = pendingRow{del: true} }

// Fail records err (the first one counts): Write hands it to the writer.
func (r *DiskRows) Fail(err error) {
	if r.err == nil {
		r.err = err
	}
}

// Err returns the first error of a read since the last Write.
func (r *DiskRows) Err() error { return r.err }

// Write puts the rows set or deleted since the last Write into w, in key
// order, with the first error of a read, and forgets them.
func (r *DiskRows) Write(w *RowWriter) {
	if r.err != nil {
		w.Fail(r.err)
	}
	for _, k := range slices.Sorted(maps.Keys(r.pending)) {
		if p := r.pending[k]; p.del {
			w.Del([]byte(k))
		} else {
			w.Set([]byte(k), p.v)
		}
	}
	r.Forget()
}

// Forget drops the rows set or deleted since the last Write, and the
// error of a read.
func (r *DiskRows) Forget() {
	clear(r.pending)
	r.err = nil
}

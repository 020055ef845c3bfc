package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/cockroachdb/pebble/v2"
)

// RowWriter puts rows into a batch, or collects them for a batch in key
// order when it has SortedRows (see NewSortedWriter), and keeps the first
// error. Neither keeps the keys and values it is handed.
type RowWriter struct {
	b      *pebble.Batch
	sorted *SortedRows
	err    error
}

// NewRowWriter returns a RowWriter that puts rows into b.
func NewRowWriter(b *pebble.Batch) *RowWriter { return &RowWriter{b: b} }

// NewSortedWriter returns a RowWriter that collects rows into sorted, for
// sorted.WriteTo to put into a batch in key order.
func NewSortedWriter(sorted *SortedRows) *RowWriter { return &RowWriter{sorted: sorted} }

// Set writes the row k with value v.
func (w *RowWriter) Set(k, v []byte) {
	switch {
	case w.err != nil:
	case w.sorted != nil:
		w.sorted.add(k, v, false)
	default:
		w.err = w.b.Set(k, v, nil)
	}
}

// Del deletes the row k.
func (w *RowWriter) Del(k []byte) {
	switch {
	case w.err != nil:
	case w.sorted != nil:
		w.sorted.add(k, nil, true)
	default:
		w.err = w.b.Delete(k, nil)
	}
}

// JSON writes the JSON of v, a row type of the model: never an API type,
// so that the API can change without changing the layout.
func (w *RowWriter) JSON(k []byte, v any) {
	data, err := json.Marshal(v)
	if err != nil && w.err == nil {
		w.err = fmt.Errorf("encode %s: %w", k, err)
	}
	w.Set(k, data)
}

// Fail records err (the first one counts) as if a write had failed.
func (w *RowWriter) Fail(err error) {
	if w.err == nil {
		w.err = err
	}
}

// Err returns the first error of a write.
func (w *RowWriter) Err() error { return w.err }

// SortedRows collects the rows of one commit, to put them into the batch
// in key order (pebble's memtable finds where a key goes from where the
// one before it went, which is cheaper for keys that come in order). It
// copies every key and value into one buffer, kept from one commit to the
// next: what a model hands the writer does not escape, as it does not
// when the rows go straight into a batch.
type SortedRows struct {
	buf  []byte
	rows []sortedRow
}

// sortedRow is a row of SortedRows: its key is buf[start:split], its
// value buf[split:end].
type sortedRow struct {
	start, split, end int
	del               bool
}

func (r *SortedRows) add(k, v []byte, del bool) {
	start := len(r.buf)
	r.buf = append(r.buf, k...)
	split := len(r.buf)
	r.buf = append(r.buf, v...)
	r.rows = append(r.rows, sortedRow{start: start, split: split, end: len(r.buf), del: del})
}

func (r *SortedRows) key(row sortedRow) []byte { return r.buf[row.start:row.split] }

// Reset empties r, keeping its memory.
func (r *SortedRows) Reset() {
	r.buf, r.rows = r.buf[:0], r.rows[:0]
}

// WriteTo puts the rows into b in key order and empties r. A commit writes
// each row once (a model writes each key it touched once); a key written
// twice fails, as the order of the two would be undefined.
func (r *SortedRows) WriteTo(b *pebble.Batch) error {
	defer r.Reset()
	slices.SortFunc(r.rows, func(x, y sortedRow) int { return bytes.Compare(r.key(x), r.key(y)) })
	for i, row := range r.rows {
		k := r.key(row)
		if i > 0 && bytes.Equal(r.key(r.rows[i-1]), k) {
			return fmt.Errorf("row %q written twice in one commit", k)
		}
		var err error
		if row.del {
			err = b.Delete(k, nil)
		} else {
			err = b.Set(k, r.buf[row.split:row.end], nil)
		}
		if err != nil {
			return fmt.Errorf("write %q: %w", k, err)
		}
	}
	return nil
}

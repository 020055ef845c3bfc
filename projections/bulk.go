package projections

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/cockroachdb/pebble/v2"
)

// A rebuild writes into a store that no one reads before it is complete,
// and that starts again from empty if it stops (there is no pebble log to
// keep). So Apply need not commit every batch: in a store opened for a
// rebuild it folds many batches into the state and commits them together
// (bulkFold), which writes a row touched by several of those batches (a
// rule's refs, a constraint's, a day's counts) once instead of once per
// batch. What the store holds once everything is committed is the same:
// a model writes a row from its state, never from the batch (see model).
//
// A commit that falls due writes its rows in key order: pebble's memtable
// finds where a key goes from where the one before it went, which is
// cheaper for keys that come in order.
const (
	// bulkFoldBatches is how many batches of Options.BatchSize events a
	// rebuild folds into one commit, at most.
	bulkFoldBatches = 64
	// bulkFoldBytes bounds the stored bytes of the events folded into one
	// commit, and so the memory the rows waiting for it hold (an event's
	// body, say, waits in the state until the commit).
	bulkFoldBytes = 16 << 20
)

// bulkFold counts what a rebuild's Apply has folded since the last
// commit, and keeps the buffer a commit sorts its rows in.
type bulkFold struct {
	maxEvents int
	events    int
	bytes     int
	rows      sortedRows
}

// add counts the events of one Apply and reports whether a commit is due.
func (f *bulkFold) add(todo []decoded) bool {
	f.events += len(todo)
	for _, d := range todo {
		f.bytes += len(d.ev.Raw)
	}
	return f.events >= f.maxEvents || f.bytes >= bulkFoldBytes
}

// pending reports whether events were folded since the last commit.
func (f *bulkFold) pending() bool { return f.events > 0 }

func (f *bulkFold) reset() { f.events, f.bytes = 0, 0 }

// commitFolded commits what a rebuild's Apply folded and has not committed
// yet. replay calls it once the log is read.
func (s *Store) commitFolded() error {
	s.applyMu.Lock()
	defer s.applyMu.Unlock()
	if s.bulk == nil || !s.bulk.pending() {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed.Load() {
		return ErrClosed
	}
	return s.commit()
}

// sortedRows collects the rows of one commit, to put them into the batch
// in key order. It copies every key and value into one buffer, kept from
// one commit to the next: what a model hands the writer does not escape,
// as it does not when the rows go straight into a batch.
type sortedRows struct {
	buf  []byte
	rows []sortedRow
}

// sortedRow is a row of sortedRows: its key is buf[start:split], its
// value buf[split:end].
type sortedRow struct {
	start, split, end int
	del               bool
}

func (r *sortedRows) add(k, v []byte, del bool) {
	start := len(r.buf)
	r.buf = append(r.buf, k...)
	split := len(r.buf)
	r.buf = append(r.buf, v...)
	r.rows = append(r.rows, sortedRow{start: start, split: split, end: len(r.buf), del: del})
}

func (r *sortedRows) key(row sortedRow) []byte { return r.buf[row.start:row.split] }

// reset empties r, keeping its memory.
func (r *sortedRows) reset() {
	r.buf, r.rows = r.buf[:0], r.rows[:0]
}

// writeTo puts the rows into b in key order and empties r. A commit writes
// each row once (a model writes each key it touched once); a key written
// twice fails, as the order of the two would be undefined.
func (r *sortedRows) writeTo(b *pebble.Batch) error {
	defer r.reset()
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

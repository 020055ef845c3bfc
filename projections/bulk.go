package projections

import "github.com/clumsies/clumsies/projections/engine"

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
	rows      engine.SortedRows
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

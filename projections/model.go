package projections

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/cockroachdb/pebble/v2"
)

// model is one read model: the rows under its key prefix and their copy in
// memory. The store core owns the meta rows (meta/...) and hands every
// other row, event and write to the models of the registry (newState).
// Adding a model is one file that implements model, a field of state, a
// line of the registry and a line of the key layout in keys.go
// (TestRegistry checks the last); a model that reads a payload no model
// read before adds its type to readsPayload (codec.go): payloadOf decodes
// each payload once for all models.
//
// The contract:
//
//   - prefix returns the model's key prefix, a constant ending in '/'. It
//     is not a prefix of another model's, nor of "meta/", nor is one of
//     theirs a prefix of it: every row of the store belongs to exactly one
//     model or to the core.
//   - load decodes one row read back at Open, key included (it starts with
//     prefix). It returns an error for a key or value it does not know;
//     Open then refuses the store as corrupt. Rows are handed over in key
//     order, none of them twice, before the first apply.
//   - apply folds one event into memory. It is deterministic: it reads the
//     event, its decoded payload and the model's own state, nothing else
//     (no clock, no other model, no map order), so that the same events
//     give the same state whatever the batches they came in. It remembers
//     the keys it touched.
//   - write puts a row for every key touched since the last write into w,
//     written from the state as it is now (a set, or a delete for an entry
//     that is gone), only under prefix, and forgets the touched keys. What
//     a model writes for a key depends only on its state, never on how
//     events were split into batches. load of the rows write wrote gives
//     back the state.
//
// A failed commit throws the whole state away and loads it again, so a
// model never has to undo an apply or a write.
type model interface {
	prefix() string
	load(key string, value []byte) error
	apply(d decoded)
	write(w *rowWriter)
}

// diskOnly is implemented by a model that keeps some of its rows on disk
// only (the manifest's bodies, read with one Get when asked for): Open
// skips the rows under diskOnly() and never hands them to load.
type diskOnly interface {
	diskOnly() string
}

// rowWriter puts rows into a batch, or collects them for a batch in key
// order when sorted is not nil (see bulkFold), and keeps the first error.
// Neither keeps the keys and values it is handed.
type rowWriter struct {
	b      *pebble.Batch
	sorted *sortedRows
	err    error
}

func (w *rowWriter) set(k, v []byte) {
	switch {
	case w.err != nil:
	case w.sorted != nil:
		w.sorted.add(k, v, false)
	default:
		w.err = w.b.Set(k, v, nil)
	}
}

func (w *rowWriter) del(k []byte) {
	switch {
	case w.err != nil:
	case w.sorted != nil:
		w.sorted.add(k, nil, true)
	default:
		w.err = w.b.Delete(k, nil)
	}
}

// json writes the JSON of v, a row type of the model: never an API type,
// so that the API can change without changing the layout.
func (w *rowWriter) json(k []byte, v any) {
	data, err := json.Marshal(v)
	if err != nil && w.err == nil {
		w.err = fmt.Errorf("encode %s: %w", k, err)
	}
	w.set(k, data)
}

// errUnknownRow is what load returns for a key it does not know.
var errUnknownRow = errors.New("unknown row")

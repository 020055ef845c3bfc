package engine

import "errors"

// Model is one read model over items of type T: the rows under its key
// prefix and what it keeps of them in memory. A store's core owns its
// meta rows (the checkpoint among them) and hands every other row, item
// and write to the models of its Registry.
//
// The contract:
//
//   - Prefixes returns the model's key prefixes (most models have one),
//     constants that end in a separator. None is a prefix of another
//     model's, nor of the store's meta rows, nor is one of theirs a prefix
//     of it: every row of the store belongs to exactly one model or to the
//     core. The Registry asks once, when the model is registered.
//   - Load decodes one row read back at open, key included (it starts
//     with one of Prefixes). It returns an error wrapping ErrUnknownRow for a key
//     it does not know, or the decoding error; the store then refuses
//     itself as corrupt. Rows are handed over in key order, none of them
//     twice, before the first Apply. A model that keeps rows on disk only
//     (DiskOnly) is not handed those.
//   - Apply folds one item into the model. It is deterministic: it reads
//     the item, the model's own state and its own rows, nothing else (no
//     clock, no other model, no map order), so that the same items give
//     the same rows whatever the batches they came in. It remembers the
//     keys it touched.
//   - Write puts a row for every key touched since the last Write into w,
//     written from the state as it is now (a set, or a delete for an entry
//     that is gone), only under Prefixes, and forgets the touched keys. What
//     a model writes for a key depends only on its state, never on how
//     items were split into batches. Load of the rows Write wrote gives
//     back the state.
//
// A failed commit throws the state away and loads it again (or, for a
// model on disk only, forgets what it had not written), so a model never
// has to undo an Apply or a Write.
type Model[T any] interface {
	Prefixes() []string
	Load(key string, value []byte) error
	Apply(item T)
	Write(w *RowWriter)
}

// DiskOnly is implemented by a model that keeps some or all of its rows on
// disk only (read with a Get when asked for): the Registry's Load skips
// the rows under each prefix of DiskOnly() and never hands them to the
// model's Load.
type DiskOnly interface {
	DiskOnly() []string
}

// ErrUnknownRow is what a model's Load returns for a key it does not know.
var ErrUnknownRow = errors.New("unknown row")

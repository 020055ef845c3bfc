package projections

import "errors"

// Errors returned by Store. Errors from Open, Apply and Rebuild wrap them
// with the directory or sequence they concern.
var (
	// ErrNotFound means no object, draft or item has the requested id.
	ErrNotFound = errors.New("projections: not found")
	// ErrGap means an event was applied out of order: its sequence is
	// beyond the checkpoint plus one.
	ErrGap = errors.New("projections: sequence gap")
	// ErrClosed is returned by a Store that has been closed.
	ErrClosed = errors.New("projections: store closed")
	// ErrLocked means another process (or another Store in this process)
	// holds the store's directory.
	ErrLocked = errors.New("projections: store in use")
	// ErrCorrupt means the store's files cannot be read. The read models
	// can always be recreated from the ledger with `clumsies rebuild`.
	ErrCorrupt = errors.New("projections: store corrupt or unreadable")
	// ErrIncompatible means the store was written in a layout this build
	// does not read (a newer clumsies, or a layout without a version).
	ErrIncompatible = errors.New("projections: store written in an incompatible format")
)

// rebuildHint ends every error that a rebuild cures.
const rebuildHint = "run `clumsies rebuild` to recreate the read models from the ledger"

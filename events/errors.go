package events

import "errors"

// Errors returned by the codec and by Log implementations.
var (
	// ErrMalformed means bytes or an envelope are not a valid event.
	ErrMalformed = errors.New("events: malformed event")
	// ErrIncompatible means the data was written by a newer, incompatible
	// version of clumsies (or a stream was created with other settings).
	ErrIncompatible = errors.New("events: written by an incompatible version")
	// ErrClosed is returned by a Log that has been closed.
	ErrClosed = errors.New("events: log closed")
	// ErrDamaged means the log has lost events it once held: a gap in its
	// sequence or a lost tail (a damaged or truncated store file, an
	// older backup restored). Nothing of an append-only log is ever
	// removed, so this is never normal; readers stop instead of skipping.
	ErrDamaged = errors.New("events: the log has lost events (damaged store)")
)

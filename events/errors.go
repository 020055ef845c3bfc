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
)

package events

import (
	"errors"
	"fmt"
)

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
	// ErrRefused means the store answered an append with a refusal (its
	// disk is full, it is over its limits, nobody serves the stream): the
	// event is not stored by that attempt. An append that fails otherwise
	// (a timeout, a lost connection, a failed fsync after the store took
	// the event) may have stored it.
	ErrRefused = errors.New("events: the store refused the append")
)

// StoredError is a Log's error about the message stored at one sequence:
// it does not decode as an event. Replay and Subscribe return it.
type StoredError struct {
	Seq uint64
	Err error
}

func (e *StoredError) Error() string { return fmt.Sprintf("decode event at seq %d: %v", e.Seq, e.Err) }

// Unwrap returns the decoding error (it wraps ErrMalformed or ErrIncompatible).
func (e *StoredError) Unwrap() error { return e.Err }

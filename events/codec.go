package events

import (
	"encoding/json"
	"fmt"

	fastjson "github.com/segmentio/encoding/json"
)

// Encode returns the stored form of e: its JSON envelope without Seq.
// It fails with ErrMalformed if e does not validate.
func Encode(e Event) ([]byte, error) {
	if err := e.Validate(); err != nil {
		return nil, err
	}
	e.Seq, e.Raw = 0, nil
	if len(e.Data) == 0 {
		e.Data = json.RawMessage(`{}`)
	}
	b, err := fastjson.Marshal(e)
	if err != nil {
		return nil, fmt.Errorf("encode event %s: %w", e.ID, err)
	}
	return b, nil
}

// Decode parses the stored form of an event. It returns an error wrapping
// ErrIncompatible for an event written by a newer schema version and one
// wrapping ErrMalformed for anything that is not an event.
func Decode(b []byte) (Event, error) {
	return decode(b, 0)
}

// DecodeStored is Decode for the bytes a log keeps with the event as its
// Raw: the event's Data and its strings share b instead of copying it, so
// b must never change afterwards. A replay decodes every event once; not
// copying halves what it allocates.
func DecodeStored(b []byte) (Event, error) {
	var e Event
	if err := DecodeStoredInto(&e, b); err != nil {
		return Event{}, err
	}
	return e, nil
}

// DecodeStoredInto is DecodeStored into e, which it overwrites whole (on
// error too), so that a reader decoding many events in turn can keep one
// Event for all of them instead of allocating one each.
func DecodeStoredInto(e *Event, b []byte) error {
	if err := decodeInto(e, b, fastjson.ZeroCopy); err != nil {
		*e = Event{}
		return err
	}
	e.Raw = b
	return nil
}

func decode(b []byte, flags fastjson.ParseFlags) (Event, error) {
	var e Event
	if err := decodeInto(&e, b, flags); err != nil {
		return Event{}, err
	}
	return e, nil
}

func decodeInto(e *Event, b []byte, flags fastjson.ParseFlags) error {
	*e = Event{}
	rest, err := fastjson.Parse(b, e, flags)
	if err == nil && len(rest) != 0 {
		err = fmt.Errorf("invalid character %q after the event", rest[0])
	}
	if err != nil {
		return fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	if e.V > SchemaVersion {
		return fmt.Errorf("%w: event %s has schema version %d, this build reads up to %d; upgrade clumsies",
			ErrIncompatible, e.ID, e.V, SchemaVersion)
	}
	e.Seq = 0
	return e.Validate()
}

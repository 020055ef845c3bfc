package mcp

import (
	"encoding/json"
	"time"

	"github.com/clumsies/clumsies/events"
)

// Input limits every tool applies before anything reaches the ledger.
const (
	// MaxArgs is the largest arguments object of a tool call, in bytes of
	// JSON as sent. An artifact body of MaxBody bytes fits even with every
	// character escaped.
	MaxArgs = 2 << 20
	// MaxItems is the most elements an array argument may hold (memref's
	// refs, memload's ids).
	MaxItems = 256
)

// envelopeRoom is more than the envelope adds to an event's data.
const envelopeRoom = 64 << 10

// checkArgs refuses arguments over MaxArgs.
func checkArgs(raw json.RawMessage) *ToolError {
	if len(raw) <= MaxArgs {
		return nil
	}
	return invalidParams("", "the arguments are %d bytes long; the limit is %d bytes (%d MiB): send less in one call", len(raw), MaxArgs, MaxArgs>>20)
}

// fitEvent returns ev and fail unchanged when ev fits the ledger
// (events.MaxEventSize once encoded). Otherwise the call fails with
// invalid_params and its event becomes the failure's, whose arguments are
// cut to events.MaxFailureArgs, so that every call still leaves one event.
func (s *Server) fitEvent(ev events.Event, raw json.RawMessage, fail *ToolError, took time.Duration) (events.Event, *ToolError) {
	if len(ev.Data) <= events.MaxEventSize-envelopeRoom {
		return ev, fail // the data is already JSON: the envelope adds little
	}
	b, err := events.Encode(ev)
	if err != nil || len(b) <= events.MaxEventSize {
		return ev, fail // an event that cannot be encoded fails at the ledger, which says why
	}
	fail = invalidParams("", "this call would be recorded as %d bytes; the ledger takes at most %d bytes (%d MiB) per call: send fewer refs or ids, or shorter texts", len(b), events.MaxEventSize, events.MaxEventSize>>20)
	small, fail := s.newEvent(ev.Tool, entry{typ: ev.Type, sessionID: ev.SessionID}, raw, fail, took)
	return small, fail
}

// Package events owns the vocabulary of the clumsies ledger: the event
// envelope, the event types and their payloads, subjects, the JSON codec, the
// ULID source, and the Log contract that every event store implements.
//
// It imports only the standard library, github.com/oklog/ulid/v2 and
// github.com/segmentio/encoding/json (a faster, API-compatible JSON decoder:
// decoding is the cost of every replay); it knows nothing of NATS, pebble or
// MCP. Adapters live in sub-packages (natsjs) and
// the conformance suite for Log implementations lives in eventstest.
package events

// Package live owns the Server-Sent Events view of the ledger: an
// http.Handler that streams the events of an events.Log to browsers and
// other HTTP clients as they are appended; it must not import anything but
// the events package and the standard library (no NATS, no pebble, no MCP).
//
// Each event is one SSE message whose id is the event's stream sequence,
// whose event name is the event type and whose data is the JSON envelope
// with its seq, on one line. A client that reconnects with Last-Event-ID
// (EventSource does this by itself) gets exactly the events it missed.
package live

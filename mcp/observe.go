package mcp

import (
	"context"
	"time"

	"github.com/clumsies/clumsies/events"
)

// CallObserver is told of every tool call once its event is recorded (or
// failed to be): the telemetry export (package telemetry). ToolCall runs
// on the call's path before the answer is sent, so it must not block: it
// hands the record on and returns.
type CallObserver interface {
	ToolCall(ctx context.Context, c CallRecord)
}

// CallRecord is what an observer learns of one tool call.
type CallRecord struct {
	// Event is the call's event as built for the ledger: tool, session,
	// outcome, error code, duration and payload. When it could not be
	// stored, its outcome and code are the answer's (unavailable or
	// outcome_unknown).
	Event events.Event
	// Recorded is false when the event could not be stored (the call
	// answered unavailable or outcome_unknown).
	Recorded bool
	// Start is when the call began, after any wait for the workspace to
	// open.
	Start time.Time
	// Meta is the request's params._meta as the client sent it: where a
	// host puts its trace context (traceparent, tracestate).
	Meta map[string]any
	// MCPSession is the MCP session id of the connection (Streamable
	// HTTP), "" over stdio.
	MCPSession string
	// ProtocolVersion is the MCP protocol version of the request.
	ProtocolVersion string
}

// observe tells the observer, if there is one, of a call.
func (s *Server) observe(ctx context.Context, c *call, ev events.Event, start time.Time, recorded bool) {
	if s.cfg.Observer == nil {
		return
	}
	s.cfg.Observer.ToolCall(ctx, CallRecord{
		Event: ev, Recorded: recorded, Start: start,
		Meta: c.meta, MCPSession: c.mcpSession, ProtocolVersion: c.protocol,
	})
}

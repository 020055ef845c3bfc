package telemetry

import (
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/mcp"
)

// The attribute names. The first are the OpenTelemetry semantic
// conventions' for MCP (mcp.*) and GenAI tools (gen_ai.*); the clumsies.*
// ones are ours.
const (
	attrMethod       = "mcp.method.name"
	attrMCPSession   = "mcp.session.id"
	attrProtocol     = "mcp.protocol.version"
	attrOperation    = "gen_ai.operation.name"
	attrTool         = "gen_ai.tool.name"
	attrConversation = "gen_ai.conversation.id"
	attrErrorType    = "error.type"
	attrSession      = "clumsies.session.id"
	attrOutcome      = "clumsies.outcome"
	attrErrorCode    = "clumsies.error.code"
	attrEventID      = "clumsies.event.id"
	attrEventType    = "clumsies.event.type"
	attrRecorded     = "clumsies.recorded"
	attrRules        = "clumsies.rule.ids"
	attrConstraints  = "clumsies.constraint.ids"
	attrRule         = "clumsies.rule.id"
)

// The values the conventions fix.
const (
	methodToolsCall  = "tools/call"
	opExecuteTool    = "execute_tool"
	errTypeToolError = "tool_error" // a result with isError: true
)

// attrs is what a call's span and counts carry.
type attrs struct {
	span   []attribute.KeyValue
	metric []attribute.KeyValue // low cardinality: no session, no ids
	used   []string             // a rule id per item loaded or constraint referenced
	fail   string               // the error code, "" for a success
}

// callAttributes reads a call's record: its tool, outcome, session and the
// ids it names, never a body, an argument or a prompt.
func callAttributes(c mcp.CallRecord) attrs {
	ev := c.Event
	used, constraints, perRule := usage(ev)
	rules, constraints := sortedOnce(used), sortedOnce(constraints)
	a := attrs{}
	if perRule {
		a.used = used
	}
	a.metric = []attribute.KeyValue{
		attribute.String(attrMethod, methodToolsCall),
		attribute.String(attrOperation, opExecuteTool),
		attribute.String(attrTool, ev.Tool),
	}
	a.span = append(a.span, a.metric...)
	a.span = append(a.span,
		attribute.String(attrOutcome, string(ev.Outcome)),
		attribute.String(attrEventID, ev.ID),
		attribute.String(attrEventType, string(ev.Type)),
		attribute.Bool(attrRecorded, c.Recorded),
	)
	if ev.SessionID != "" {
		a.span = append(a.span, attribute.String(attrSession, ev.SessionID), attribute.String(attrConversation, ev.SessionID))
	}
	if c.MCPSession != "" {
		a.span = append(a.span, attribute.String(attrMCPSession, c.MCPSession))
	}
	if c.ProtocolVersion != "" {
		a.span = append(a.span, attribute.String(attrProtocol, c.ProtocolVersion))
	}
	if len(rules) > 0 {
		a.span = append(a.span, attribute.StringSlice(attrRules, rules))
	}
	if len(constraints) > 0 {
		a.span = append(a.span, attribute.StringSlice(attrConstraints, constraints))
	}
	if ev.Outcome == events.OutcomeError {
		a.fail = ev.ErrorCode
		failed := []attribute.KeyValue{attribute.String(attrErrorType, errTypeToolError), attribute.String(attrErrorCode, a.fail)}
		a.span = append(a.span, failed...)
		a.metric = append(a.metric, failed...)
	}
	return a
}

// status marks a failed call's span as an error, with its code.
func (a attrs) status(span trace.Span) {
	if a.fail != "" {
		span.SetStatus(codes.Error, a.fail)
	}
}

// spanName is the conventions' "{mcp.method.name} {target}".
func spanName(c mcp.CallRecord) string { return methodToolsCall + " " + c.Event.Tool }

// metaCarrier reads the trace context a host put in params._meta
// (traceparent, tracestate, baggage: strings), the tracestate cut to its
// well-formed entries (sanitizeTraceState).
func metaCarrier(meta map[string]any) propagation.MapCarrier {
	m := propagation.MapCarrier{}
	for _, k := range []string{"traceparent", "tracestate", "baggage"} {
		if v, ok := meta[k].(string); ok {
			if k == "tracestate" {
				v = sanitizeTraceState(v)
			}
			m[k] = v
		}
	}
	return m
}

package telemetry

import (
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
	span   []attr
	metric []attr   // low cardinality: no session, no ids
	used   []string // a rule id per item loaded or constraint referenced
	fail   string   // the error code, "" for a success
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
	a.metric = []attr{
		stringAttr(attrMethod, methodToolsCall),
		stringAttr(attrOperation, opExecuteTool),
		stringAttr(attrTool, ev.Tool),
	}
	a.span = append(a.span, a.metric...)
	a.span = append(a.span,
		stringAttr(attrOutcome, string(ev.Outcome)),
		stringAttr(attrEventID, ev.ID),
		stringAttr(attrEventType, string(ev.Type)),
		boolAttr(attrRecorded, c.Recorded),
	)
	if ev.SessionID != "" {
		a.span = append(a.span, stringAttr(attrSession, ev.SessionID), stringAttr(attrConversation, ev.SessionID))
	}
	if c.MCPSession != "" {
		a.span = append(a.span, stringAttr(attrMCPSession, c.MCPSession))
	}
	if c.ProtocolVersion != "" {
		a.span = append(a.span, stringAttr(attrProtocol, c.ProtocolVersion))
	}
	if len(rules) > 0 {
		a.span = append(a.span, stringsAttr(attrRules, rules))
	}
	if len(constraints) > 0 {
		a.span = append(a.span, stringsAttr(attrConstraints, constraints))
	}
	if ev.Outcome == events.OutcomeError {
		a.fail = ev.ErrorCode
		failed := []attr{stringAttr(attrErrorType, errTypeToolError), stringAttr(attrErrorCode, a.fail)}
		a.span = append(a.span, failed...)
		a.metric = append(a.metric, failed...)
	}
	return a
}

// spanName is the conventions' "{mcp.method.name} {target}".
func spanName(c mcp.CallRecord) string { return methodToolsCall + " " + c.Event.Tool }

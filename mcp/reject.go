package mcp

import (
	"context"

	"github.com/clumsies/clumsies/events"
)

// agentrejected closes a turn whose result did not follow the loaded rules.

func (s *Server) rejectTool() *tool {
	return &tool{
		name:   "agentrejected",
		title:  "Record a rejected turn",
		access: additive,
		typ:    events.TypeReject,
		desc:   "Close an unsatisfactory turn: record that the result did not follow the loaded rules and constraints (for example when the user rejected it).",
		input: object("",
			optional("reason", str("Optional: why the result was not satisfactory, in a sentence or two.")),
		),
		output: output("The recorded rejection.",
			required("ok", boolean("True when the rejection was recorded.")),
		),
		run: s.reject,
	}
}

func (s *Server) reject(_ context.Context, c *call) (any, entry, error) {
	e := entry{typ: events.TypeReject}
	if err := requireSession(c); err != nil {
		return nil, e, err
	}
	f, err := decodeObject(c.raw, "", "reason")
	if err != nil {
		return nil, e, err
	}
	reason, err := f.str("reason", false, false, maxText)
	if err != nil {
		return nil, e, err
	}
	e.payload = events.RejectData{Reason: reason}
	return okResult{OK: true}, e, nil
}

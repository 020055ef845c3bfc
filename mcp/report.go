package mcp

import (
	"context"

	"github.com/clumsies/clumsies/events"
)

// agentreport closes a turn that went well, with the agent's summary.

func (s *Server) reportTool() *tool {
	return &tool{
		name:   "agentreport",
		title:  "Report a finished turn",
		access: additive,
		typ:    events.TypeAgentReport,
		desc:   "Close a successful turn: record a short summary of the work you completed. Call it after memref, at the end of the turn.",
		input: object("",
			required("summary", nonEmpty("A short summary of what you did this turn, in a sentence or two. Must not be empty.")),
		),
		output: output("The recorded report.",
			required("ok", boolean("True when the report was recorded.")),
		),
		run: s.report,
	}
}

type okResult struct {
	OK bool `json:"ok"`
}

func (s *Server) report(_ context.Context, c *call) (any, entry, error) {
	e := entry{typ: events.TypeAgentReport}
	if err := requireSession(c); err != nil {
		return nil, e, err
	}
	f, err := decodeObject(c.raw, "", "summary")
	if err != nil {
		return nil, e, err
	}
	summary, err := f.str("summary", true, true, maxText)
	if err != nil {
		return nil, e, err
	}
	e.payload = events.AgentReportData{Summary: summary}
	return okResult{OK: true}, e, nil
}

package telemetry

import (
	"github.com/clumsies/clumsies/events"
)

// The metric names: the conventions' MCP server duration, and our usage
// counters (the figures /metrics and stats give, counted by this process).
const (
	metricDuration = "mcp.server.operation.duration"
	metricCalls    = "clumsies.tool.calls"
	metricLoads    = "clumsies.rule.loads"
	metricRefs     = "clumsies.rule.refs"
	metricDropped  = "clumsies.telemetry.dropped"
)

// The instruments' descriptions and units, as exported.
const (
	descDuration = "MCP request duration as the server saw it, from receipt to the result: here, tools/call."
	descCalls    = "Tool calls, by tool and outcome (ok or error)."
	descLoads    = "Items memload served, by rule, workflow or context id."
	descRefs     = "Constraints agents declared they applied (memref), by rule id."
	descDropped  = "Tool calls whose span and counts were dropped because the export's queue was full."
)

// durationBuckets are the conventions' boundaries for
// mcp.server.operation.duration (10 ms to 300 s), with finer ones below
// 10 ms in front, where a clumsies call falls.
var durationBuckets = []float64{0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005,
	0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300}

// instruments count the calls, cumulatively from the export's start.
// Only the export's worker touches them.
type instruments struct {
	duration histogram
	calls    counter
	loads    counter
	refs     counter
}

func newInstruments() *instruments {
	return &instruments{duration: histogram{bounds: durationBuckets}}
}

// count adds a call to the instruments.
func (in *instruments) count(f *finished, a attrs) {
	ev := f.rec.Event
	in.duration.record(f.end.Sub(f.rec.Start).Seconds(), a.metric)
	outcome := string(events.OutcomeOK)
	if a.fail != "" {
		outcome = string(events.OutcomeError)
	}
	in.calls.add(1, stringAttr(attrTool, ev.Tool), stringAttr(attrOutcome, outcome))
	var per *counter
	switch ev.Type {
	case events.TypeLoad:
		per = &in.loads
	case events.TypeRefer:
		per = &in.refs
	default:
		return
	}
	for _, id := range a.used {
		per.add(1, stringAttr(attrRule, id))
	}
}

package telemetry

import (
	"context"
	"fmt"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"

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

// durationBuckets are the conventions' boundaries for
// mcp.server.operation.duration (10 ms to 300 s), with finer ones below
// 10 ms in front, where a clumsies call falls.
var durationBuckets = []float64{0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005,
	0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300}

// instruments count the calls.
type instruments struct {
	duration metric.Float64Histogram
	calls    metric.Int64Counter
	loads    metric.Int64Counter
	refs     metric.Int64Counter
}

// newInstruments makes the instruments on m; dropped is read at each
// export.
func newInstruments(m metric.Meter, dropped func() uint64) (instruments, error) {
	var in instruments
	var err error
	if in.duration, err = m.Float64Histogram(metricDuration, metric.WithUnit("s"),
		metric.WithDescription("MCP request duration as the server saw it, from receipt to the result: here, tools/call."),
		metric.WithExplicitBucketBoundaries(durationBuckets...)); err != nil {
		return in, fmt.Errorf("make %s: %w", metricDuration, err)
	}
	if in.calls, err = m.Int64Counter(metricCalls, metric.WithUnit("{call}"),
		metric.WithDescription("Tool calls, by tool and outcome (ok or error).")); err != nil {
		return in, fmt.Errorf("make %s: %w", metricCalls, err)
	}
	if in.loads, err = m.Int64Counter(metricLoads, metric.WithUnit("{load}"),
		metric.WithDescription("Items memload served, by rule, workflow or context id.")); err != nil {
		return in, fmt.Errorf("make %s: %w", metricLoads, err)
	}
	if in.refs, err = m.Int64Counter(metricRefs, metric.WithUnit("{reference}"),
		metric.WithDescription("Constraints agents declared they applied (memref), by rule id.")); err != nil {
		return in, fmt.Errorf("make %s: %w", metricRefs, err)
	}
	if _, err = m.Int64ObservableCounter(metricDropped, metric.WithUnit("{call}"),
		metric.WithDescription("Tool calls whose span and counts were dropped because the export's queue was full."),
		metric.WithInt64Callback(func(_ context.Context, o metric.Int64Observer) error {
			o.Observe(int64(dropped()))
			return nil
		})); err != nil {
		return in, fmt.Errorf("make %s: %w", metricDropped, err)
	}
	return in, nil
}

// count adds a call to the instruments.
func (in instruments) count(f *finished, a attrs) {
	ctx := context.Background()
	ev := f.rec.Event
	in.duration.Record(ctx, f.end.Sub(f.rec.Start).Seconds(), metric.WithAttributes(a.metric...))
	outcome := string(events.OutcomeOK)
	if a.fail != "" {
		outcome = string(events.OutcomeError)
	}
	in.calls.Add(ctx, 1, metric.WithAttributes(attribute.String(attrTool, ev.Tool), attribute.String(attrOutcome, outcome)))
	var per metric.Int64Counter
	switch ev.Type {
	case events.TypeLoad:
		per = in.loads
	case events.TypeRefer:
		per = in.refs
	default:
		return
	}
	for _, id := range a.used {
		per.Add(ctx, 1, metric.WithAttributes(attribute.String(attrRule, id)))
	}
}

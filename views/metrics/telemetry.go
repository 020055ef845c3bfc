package metrics

import "github.com/prometheus/client_golang/prometheus"

// telemetryDropped counts the tool calls the OpenTelemetry export dropped
// because its queue was full (Options.TelemetryDropped).
func telemetryDropped(dropped func() uint64) prometheus.Collector {
	return prometheus.NewCounterFunc(prometheus.CounterOpts{
		Name: "clumsies_otel_dropped_calls_total",
		Help: "Tool calls whose span and counts the OpenTelemetry export ([otel] endpoint) dropped because its queue was full (0 without an export); the calls themselves were answered and recorded.",
	}, func() float64 { return float64(dropped()) })
}

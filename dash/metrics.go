package dash

import "github.com/clumsies/clumsies/projections"

// Metrics is what /metrics reads of the read models: GET /api/metrics is
// not routed; the metrics collector asks for PageMetrics.
type Metrics struct {
	Ledger
	Events    uint64                    `json:"events"`
	Tools     []projections.ToolMetrics `json:"tools"`
	Latencies []projections.Latency     `json:"latencies"`
}

func metricsOf(src Source, led Ledger) Metrics {
	return Metrics{Ledger: led, Events: src.Summary().Events, Tools: src.Tools(), Latencies: src.Latencies()}
}

package telemetry

import "log/slog"

// ProtocolHTTP is the one protocol the export speaks: OTLP/HTTP with
// protobuf bodies. Every Collector and vendor accepts it; OTLP/gRPC is
// refused (ErrGRPC) because its client would be linked into every
// clumsies process, exporting or not.
const ProtocolHTTP = "http"

// DefaultQueue is how many calls wait for the worker before the next is
// dropped.
const DefaultQueue = 4096

// Options configure an Exporter.
type Options struct {
	Protocol string // ProtocolHTTP, or "" for it
	Host     string // the collector's host:port (OTLP/HTTP)
	Path     string // the prefix of /v1/traces and /v1/metrics
	Insecure bool   // send in clear text (an http:// endpoint)
	// Headers are sent with every export. When none are given,
	// OTEL_EXPORTER_OTLP_TRACES_HEADERS (METRICS_HEADERS) or
	// OTEL_EXPORTER_OTLP_HEADERS applies, as with the SDK's exporters.
	Headers map[string]string
	// WorkspaceID and Version describe the service in every export.
	WorkspaceID string
	Version     string
	// Queue bounds the calls waiting for the worker; 0 means DefaultQueue.
	Queue int
	// Logger receives the exports that failed (warn); nil discards them.
	Logger *slog.Logger
}

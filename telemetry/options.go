package telemetry

import "log/slog"

// The protocols an endpoint speaks.
const (
	ProtocolHTTP = "http" // OTLP/HTTP with protobuf bodies
	ProtocolGRPC = "grpc" // OTLP/gRPC
)

// DefaultQueue is how many calls wait for the worker before the next is
// dropped.
const DefaultQueue = 4096

// Options configure an Exporter.
type Options struct {
	Protocol string // ProtocolHTTP or ProtocolGRPC
	Host     string // the collector's host:port
	Path     string // for HTTP, the prefix of /v1/traces and /v1/metrics
	Insecure bool   // send in clear text (an http:// endpoint)
	// Headers are sent with every export. When none are given, the SDK's
	// OTEL_EXPORTER_OTLP_HEADERS applies.
	Headers map[string]string
	// WorkspaceID and Version describe the service in every export.
	WorkspaceID string
	Version     string
	// Queue bounds the calls waiting for the worker; 0 means DefaultQueue.
	Queue int
	// Logger receives the SDK's export errors (warn); nil discards them.
	Logger *slog.Logger
}

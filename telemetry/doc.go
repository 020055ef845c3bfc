// Package telemetry exports a span per tool call and the usage counters
// to an OpenTelemetry collector over OTLP/HTTP, when the workspace's
// config.toml names one ([otel] endpoint). It makes the spans and the
// counts itself and writes the OTLP requests with protowire; it imports
// none of OpenTelemetry's Go packages: the SDK's batch processor and
// aggregation held more memory than a span and a count need, and its
// OTLP exporters' generated service packages would link gRPC into every
// clumsies process (deps_test.go). OTLP/gRPC is refused (ErrGRPC). The
// spans follow the OpenTelemetry semantic conventions for MCP and GenAI
// tools (docs/dashboard.md, "Telemetry"); a call's span is a child of the
// host's span when the request carries W3C trace context in
// params._meta, and is not exported when that trace is not sampled.
//
// The export never slows or fails a tool call: the call hands its record
// to a bounded queue and returns; a worker writes its span into a batch
// (sent at 512 spans or 64 KiB, or a second after its first span), adds
// it to the counts (sent every minute), and sends them. When the queue is
// full the record is dropped and counted (Dropped).
package telemetry

// Package telemetry exports a span per tool call and the usage counters
// to an OpenTelemetry collector over OTLP/HTTP, when the workspace's
// config.toml names one ([otel] endpoint). It imports the OpenTelemetry
// SDK, which makes the spans and metrics, and protowire, with which it
// writes the OTLP requests itself; never the SDK's OTLP exporters, whose
// generated service packages would link gRPC into every clumsies process
// (deps_test.go). OTLP/gRPC is refused (ErrGRPC). The spans follow
// the OpenTelemetry semantic conventions for MCP and GenAI tools
// (docs/dashboard.md, "Telemetry"); a call's span is a child of the
// host's span when the request carries W3C trace context in
// params._meta.
//
// The export never slows or fails a tool call: the call hands its record
// to a bounded queue and returns; a worker makes the spans and counts,
// and the SDK's batch processor sends them. When the queue is full the
// record is dropped and counted (Dropped).
package telemetry

// Package otelcoltest runs a real OpenTelemetry Collector for tests: the
// minimal one in interop/otelcol (the OTLP receiver over gRPC and HTTP,
// and an exporter that writes what it receives as OTLP/JSON lines),
// built from its own Go module once and cached under
// ~/.cache/clumsies/otelcol. It is for tests and the benchmarks only.
package otelcoltest

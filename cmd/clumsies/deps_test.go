package main_test

import (
	"testing"

	"github.com/clumsies/clumsies/internal/archtest"
)

// TestImportRules keeps the binary wiring and printing: the storage and
// the messaging (pebble, nats.go and its jetstream, nats-server) are
// reached through the packages of their concepts (node, hooks, hublink,
// ledger, ...), never directly.
func TestImportRules(t *testing.T) {
	archtest.ForbidImports(t, ".",
		"github.com/cockroachdb/pebble", "github.com/cockroachdb/pebble/v2",
		"github.com/nats-io/nats.go", "github.com/nats-io/nats-server/v2",
	)
}

// TestLinked keeps out of the binary what every process would carry for
// nothing: gRPC and the OTLP exporters and service stubs that bring it
// (telemetry writes OTLP/HTTP itself), 14 MB of the binary and ~4 MiB of
// every process's RSS (BENCHMARKS.md, "The one binary lean again"); and
// the OpenTelemetry SDK and API (telemetry makes its spans and counts
// itself), whose batch processor and aggregation held more of an
// exporting serve's memory than the export needs (BENCHMARKS.md,
// "Serve's memory and the long run (issue 35)").
func TestLinked(t *testing.T) {
	archtest.ForbidDeps(t, ".",
		"google.golang.org/grpc", "github.com/grpc-ecosystem/grpc-gateway",
		"go.opentelemetry.io/otel", "go.opentelemetry.io/proto/otlp",
	)
}

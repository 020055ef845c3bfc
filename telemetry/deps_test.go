package telemetry_test

import (
	"testing"

	"github.com/clumsies/clumsies/internal/archtest"
)

// TestImportRules: protowire to write OTLP, and the call's vocabulary;
// nothing of OpenTelemetry's Go packages, whose SDK held more memory
// than a span and a count need (BENCHMARKS.md, "Serve's memory and the
// long run (issue 35)") and whose OTLP exporters' generated service
// packages link gRPC into the binary.
func TestImportRules(t *testing.T) {
	archtest.AllowImports(t, ".", "google.golang.org/protobuf/encoding/protowire",
		archtest.Module+"/events", archtest.Module+"/mcp")
	archtest.ForbidImports(t, ".", "go.opentelemetry.io")
}

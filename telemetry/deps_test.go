package telemetry_test

import (
	"testing"

	"github.com/clumsies/clumsies/internal/archtest"
)

// TestImportRules: the SDK, protowire to write OTLP, and the call's
// vocabulary; never the SDK's OTLP exporters, whose generated service
// packages link gRPC into the binary.
func TestImportRules(t *testing.T) {
	archtest.AllowImports(t, ".", "go.opentelemetry.io/otel/...", "google.golang.org/protobuf/encoding/protowire",
		archtest.Module+"/events", archtest.Module+"/mcp")
	archtest.ForbidImports(t, ".", "go.opentelemetry.io/otel/exporters")
}

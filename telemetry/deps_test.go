package telemetry_test

import (
	"testing"

	"github.com/clumsies/clumsies/internal/archtest"
)

func TestImportRules(t *testing.T) {
	archtest.AllowImports(t, ".", "go.opentelemetry.io/otel/...", archtest.Module+"/events", archtest.Module+"/mcp")
}

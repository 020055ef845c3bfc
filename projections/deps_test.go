package projections_test

import (
	"testing"

	"github.com/clumsies/clumsies/internal/archtest"
)

func TestImportRules(t *testing.T) {
	archtest.AllowImports(t, ".", archtest.Module+"/events", archtest.Module+"/evidence", archtest.Module+"/content", archtest.Module+"/catalog", archtest.Module+"/internal/gcpace", archtest.Module+"/projections/engine", "github.com/cockroachdb/pebble/v2/...")
}

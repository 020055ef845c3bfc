package stats_test

import (
	"testing"

	"github.com/clumsies/clumsies/internal/archtest"
)

// TestImportRules keeps stats a computation over the read models: it
// reads what node gives and opens nothing itself.
func TestImportRules(t *testing.T) {
	archtest.AllowImports(t, ".", archtest.Module+"/views/dash", archtest.Module+"/dayrange", archtest.Module+"/evidence", archtest.Module+"/node", archtest.Module+"/projections")
}

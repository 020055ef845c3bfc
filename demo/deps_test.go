package demo_test

import (
	"testing"

	"github.com/clumsies/clumsies/internal/archtest"
)

// TestImportRules keeps the demo a client of the server's parts: it opens
// the workspace through node and plays through mcp's client.
func TestImportRules(t *testing.T) {
	archtest.AllowImports(t, ".",
		archtest.Module+"/embedded-nats", archtest.Module+"/events", archtest.Module+"/mcp",
		archtest.Module+"/node", archtest.Module+"/stats", archtest.Module+"/workspace",
		archtest.Module+"/internal/oneline",
	)
}

package mcp

import (
	"testing"

	"github.com/clumsies/clumsies/internal/archtest"
)

func TestImportRules(t *testing.T) {
	archtest.AllowImports(t, ".",
		archtest.Module+"/events",
		archtest.Module+"/content", archtest.Module+"/catalog",
		archtest.Module+"/projections", archtest.Module+"/mcp/frame",
		"github.com/modelcontextprotocol/go-sdk/...",
	)
}

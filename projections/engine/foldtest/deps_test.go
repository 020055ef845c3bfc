package foldtest_test

import (
	"testing"

	"github.com/clumsies/clumsies/internal/archtest"
)

func TestImportRules(t *testing.T) {
	archtest.AllowImports(t, ".", archtest.Module+"/events", archtest.Module+"/content", archtest.Module+"/projections/engine",
		"github.com/cockroachdb/pebble/v2", "github.com/cockroachdb/pebble/v2/vfs", "golang.org/x/tools/txtar")
}

package engine_test

import (
	"testing"

	"github.com/clumsies/clumsies/internal/archtest"
)

func TestImportRules(t *testing.T) {
	archtest.AllowImports(t, ".", "github.com/cockroachdb/pebble/v2", "github.com/cockroachdb/pebble/v2/vfs")
}

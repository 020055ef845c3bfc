package frame

import (
	"testing"

	"github.com/clumsies/clumsies/internal/archtest"
)

// The front links this package: it must stay light.
func TestImportRules(t *testing.T) {
	archtest.AllowImports(t, ".", archtest.Module+"/content")
}

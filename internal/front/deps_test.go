package front

import (
	"testing"

	"github.com/clumsies/clumsies/internal/archtest"
)

// The front links this package: it must stay on the standard library.
func TestImportRules(t *testing.T) {
	archtest.AllowImports(t, ".")
}

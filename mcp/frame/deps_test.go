package frame

import (
	"testing"

	"github.com/clumsies/clumsies/internal/archtest"
)

// The frame is text read from the content tree: it needs nothing else.
func TestImportRules(t *testing.T) {
	archtest.AllowImports(t, ".", archtest.Module+"/content")
}

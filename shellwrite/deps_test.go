package shellwrite_test

import (
	"testing"

	"github.com/clumsies/clumsies/internal/archtest"
)

// TestImportRules keeps shellwrite a leaf: the standard library and the
// shell parser, nothing of clumsies.
func TestImportRules(t *testing.T) {
	archtest.AllowImports(t, ".", "mvdan.cc/sh/v3/syntax")
}

package ui_test

import (
	"testing"

	"github.com/clumsies/clumsies/internal/archtest"
)

// The pages know the API's request type, nothing of the owner or HTTP
// serving.
func TestImportRules(t *testing.T) {
	archtest.AllowImports(t, ".", archtest.Module+"/views/dash", archtest.Module+"/dayrange")
}

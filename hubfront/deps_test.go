package hubfront_test

import (
	"testing"

	"github.com/clumsies/clumsies/internal/archtest"
)

// TestImportRules keeps hubfront the routing of parts made elsewhere: the
// hub, its metrics and its dashboard.
func TestImportRules(t *testing.T) {
	archtest.AllowImports(t, ".",
		archtest.Module+"/hub", archtest.Module+"/hub/hubwire", archtest.Module+"/views/metrics", archtest.Module+"/views/ui")
}

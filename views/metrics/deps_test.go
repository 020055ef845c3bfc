package metrics_test

import (
	"testing"

	"github.com/clumsies/clumsies/internal/archtest"
)

func TestImportRules(t *testing.T) {
	archtest.AllowImports(t, ".", "github.com/prometheus/client_golang/...", archtest.Module+"/views/dash", archtest.Module+"/projections", archtest.Module+"/hub/hubwire")
}

package dash_test

import (
	"testing"

	"github.com/clumsies/clumsies/internal/archtest"
)

// The API reads the read models and knows nothing of HTTP servers, NATS or
// the owner.
func TestImportRules(t *testing.T) {
	archtest.AllowImports(t, ".", archtest.Module+"/projections", archtest.Module+"/catalog", archtest.Module+"/content", archtest.Module+"/events", archtest.Module+"/evidence", archtest.Module+"/dayrange")
}

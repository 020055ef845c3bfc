package hubwire_test

import (
	"testing"

	"github.com/clumsies/clumsies/internal/archtest"
)

func TestImportRules(t *testing.T) {
	archtest.AllowImports(t, ".", archtest.Module+"/content", archtest.Module+"/events", archtest.Module+"/evidence", archtest.Module+"/catalog",
		"github.com/nats-io/nkeys")
}

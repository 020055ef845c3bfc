package repodraft_test

import (
	"testing"

	"github.com/clumsies/clumsies/internal/archtest"
)

func TestImportRules(t *testing.T) {
	archtest.AllowImports(t, ".", archtest.Module+"/catalog", archtest.Module+"/content", archtest.Module+"/events",
		archtest.Module+"/projections", archtest.Module+"/textdiff")
}

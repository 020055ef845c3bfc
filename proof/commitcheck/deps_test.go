package commitcheck_test

import (
	"testing"

	"github.com/clumsies/clumsies/internal/archtest"
)

// The judgement of a change reads the ledger and the repository: it
// knows nothing of the owner, HTTP or the command line.
func TestImportRules(t *testing.T) {
	archtest.AllowImports(t, ".", archtest.Module+"/proof/attest", archtest.Module+"/proof/gitrepo", archtest.Module+"/rulecheck",
		archtest.Module+"/content", archtest.Module+"/catalog", archtest.Module+"/events", archtest.Module+"/workspace")
}

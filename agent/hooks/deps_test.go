package hooks_test

import (
	"testing"

	"github.com/clumsies/clumsies/internal/archtest"
)

// TestImportRules keeps hooks a client of the workspace's core: it
// reaches the ledger through node and speaks the hosts' protocol through
// adapt, reads shell commands through shellwrite and the working tree
// through treecheck, runs the rules' checks through rulecheck, never the
// storage or the hub directly.
func TestImportRules(t *testing.T) {
	archtest.AllowImports(t, ".",
		archtest.Module+"/agent/adapt", archtest.Module+"/node", archtest.Module+"/events",
		archtest.Module+"/content", archtest.Module+"/projections", archtest.Module+"/workspace",
		archtest.Module+"/shellwrite", archtest.Module+"/treecheck", archtest.Module+"/rulecheck",
	)
}

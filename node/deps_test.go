package node_test

import (
	"testing"

	"github.com/clumsies/clumsies/internal/archtest"
)

// TestImportRules keeps node the workspace's core: it reaches a hub only
// through its Link port (implemented by hublink), so it imports neither the
// hub server, nor the hub's wire (hub/hubwire), nor hublink; and it serves
// mcp, so it never imports it.
func TestImportRules(t *testing.T) {
	archtest.AllowImports(t, ".",
		archtest.Module+"/events", archtest.Module+"/events/natsjs", archtest.Module+"/content", archtest.Module+"/catalog",
		archtest.Module+"/projections", archtest.Module+"/proof/ledger", archtest.Module+"/workspace",
		archtest.Module+"/embedded-nats", archtest.Module+"/contentwatch", archtest.Module+"/views/dash",
		archtest.Module+"/internal/gcpace", archtest.Module+"/treecheck", archtest.Module+"/rulecheck",
		archtest.Module+"/proof/commitcheck", archtest.Module+"/proof/gitrepo",
		"github.com/nats-io/nats-server/v2/server", "github.com/nats-io/nats.go/...",
		"github.com/cockroachdb/pebble/v2/...", "golang.org/x/sync/errgroup", "golang.org/x/sys/unix",
	)
}

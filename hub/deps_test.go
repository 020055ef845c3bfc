package hub_test

import (
	"path"
	"testing"

	"github.com/clumsies/clumsies/internal/archtest"
)

func TestImportRules(t *testing.T) {
	archtest.AllowImports(t, ".", archtest.Module+"/hub/hubwire", archtest.Module+"/events", archtest.Module+"/events/natsjs", archtest.Module+"/evidence", archtest.Module+"/content", archtest.Module+"/catalog", archtest.Module+"/dayrange", archtest.Module+"/proof/ledger", archtest.Module+"/projections/engine",
		archtest.Module+"/textdiff",
		"github.com/nats-io/nats-server/v2/server", "github.com/nats-io/nats.go/...", "github.com/nats-io/nkeys",
		"github.com/cockroachdb/pebble/v2", "github.com/cockroachdb/pebble/v2/vfs", "github.com/BurntSushi/toml")
}

// TestServerImporters checks that nothing outside the hub server imports
// it but what starts a hub: the command's `hub serve` and `hub init`
// (hub_serve.go), the hub's HTTP front that wraps a running hub
// (hubfront), and the helpers that start a real hub for tests and
// benchmarks. Everything else talks to a hub through hubwire.
func TestServerImporters(t *testing.T) {
	allowed := map[string]bool{
		"cmd/clumsies/hub_serve.go": true,
	}
	allowedDirs := map[string]bool{"hub": true, "hubfront": true, "internal/hubtest": true, "internal/bench": true}
	for _, f := range archtest.Importers(t, "..", archtest.Module+"/hub") {
		if !allowed[f] && !allowedDirs[path.Dir(f)] {
			t.Errorf("%s imports the hub server; import hub/hubwire (names, wire types, Client) instead", f)
		}
	}
}

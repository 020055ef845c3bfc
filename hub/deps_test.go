package hub_test

import (
	"testing"

	"github.com/clumsies/clumsies/internal/archtest"
)

func TestImportRules(t *testing.T) {
	archtest.AllowImports(t, ".", archtest.Module+"/events", archtest.Module+"/content", archtest.Module+"/catalog",
		"github.com/nats-io/nats-server/v2", "github.com/nats-io/nats.go", "github.com/nats-io/nkeys",
		"github.com/cockroachdb/pebble/v2", "github.com/BurntSushi/toml")
}

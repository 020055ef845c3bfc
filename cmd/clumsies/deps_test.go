package main_test

import (
	"testing"

	"github.com/clumsies/clumsies/internal/archtest"
)

// TestImportRules keeps the binary wiring and printing: the storage and
// the messaging (pebble, nats.go and its jetstream, nats-server) are
// reached through the packages of their concepts (node, hooks, hublink,
// ledger, ...), never directly.
func TestImportRules(t *testing.T) {
	archtest.ForbidImports(t, ".",
		"github.com/cockroachdb/pebble", "github.com/cockroachdb/pebble/v2",
		"github.com/nats-io/nats.go", "github.com/nats-io/nats-server/v2",
	)
}

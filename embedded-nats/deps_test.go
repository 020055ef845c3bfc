package embeddednats_test

import (
	"testing"

	"github.com/clumsies/clumsies/internal/archtest"
)

func TestImportRules(t *testing.T) {
	archtest.AllowImports(t, ".", "github.com/nats-io/nats-server/v2/server", "github.com/nats-io/nats.go/...")
}

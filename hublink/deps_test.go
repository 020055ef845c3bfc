package hublink_test

import (
	"testing"

	"github.com/clumsies/clumsies/internal/archtest"
)

func TestImportRules(t *testing.T) {
	archtest.AllowImports(t, ".", archtest.Module+"/embedded-nats", archtest.Module+"/workspace", archtest.Module+"/hub/hubwire", archtest.Module+"/events",
		archtest.Module+"/node", archtest.Module+"/projections", archtest.Module+"/catalog", archtest.Module+"/content",
		"github.com/nats-io/nats.go/...", "github.com/nats-io/nkeys")
}

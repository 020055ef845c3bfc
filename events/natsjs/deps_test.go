package natsjs_test

import (
	"testing"

	"github.com/clumsies/clumsies/internal/archtest"
)

func TestImportRules(t *testing.T) {
	archtest.AllowImports(t, ".", archtest.Module+"/events", "github.com/nats-io/nats.go/...")
	for _, imp := range archtest.Imports(t, ".") {
		if imp == archtest.Module+"/events/eventstest" {
			t.Errorf("natsjs imports %s outside its tests", imp)
		}
	}
}

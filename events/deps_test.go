package events_test

import (
	"testing"

	"github.com/clumsies/clumsies/internal/archtest"
)

func TestImportRules(t *testing.T) {
	archtest.AllowImports(t, ".", "github.com/oklog/ulid/v2", "github.com/segmentio/encoding/json")
	archtest.AllowImports(t, "eventstest", archtest.Module+"/events")
}

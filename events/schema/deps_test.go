package schema_test

import (
	"testing"

	"github.com/clumsies/clumsies/internal/archtest"
)

func TestImportRules(t *testing.T) {
	archtest.AllowImports(t, ".", archtest.Module+"/events", "github.com/google/jsonschema-go/jsonschema")
	archtest.AllowImports(t, "gen", archtest.Module+"/events/schema")
}

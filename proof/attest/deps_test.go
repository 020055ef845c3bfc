package attest_test

import (
	"testing"

	"github.com/clumsies/clumsies/internal/archtest"
)

func TestImportRules(t *testing.T) {
	archtest.AllowImports(t, ".", archtest.Module+"/events", archtest.Module+"/proof/ledger",
		"github.com/in-toto/attestation/go/v1", "google.golang.org/protobuf/...",
		"github.com/secure-systems-lab/go-securesystemslib/dsse", "golang.org/x/crypto/ssh")
}

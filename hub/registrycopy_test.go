package hub_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRegistry_CopyWrittenOnClose joins a node and stops the hub at once:
// the registry's local copy, written behind the changes, holds the node
// when Close returns, so that the next start sets up its account before
// the server starts.
func TestRegistry_CopyWrittenOnClose(t *testing.T) {
	th := newTestHub(t)
	sn := inviteNode(t, th, "red")
	joinAll(t, th, []*stormNode{sn})
	th.stop()
	tn := sn.tn
	b, err := os.ReadFile(filepath.Join(th.cfg.DataDir(), "registry.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), tn.id.NodeID) {
		t.Fatalf("registry.json does not hold node %s:\n%s", tn.id.NodeID, b)
	}
}

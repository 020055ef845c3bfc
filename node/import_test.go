package node_test

import (
	"bytes"
	"context"
	"io"
	"os"
	"testing"

	embeddednats "github.com/clumsies/clumsies/embedded-nats"
	"github.com/clumsies/clumsies/node"
	"github.com/clumsies/clumsies/proof/ledger"
)

// An export imported into the workspace's emptied ledger restores it:
// the same events, and read models rebuilt from them with the digest the
// original ones had.
func TestNode_ImportRestoresTheLedger(t *testing.T) {
	ctx := context.Background()
	ws := newWorkspace(t)
	n, err := node.Open(ctx, ws, node.Options{Sync: embeddednats.SyncInterval})
	if err != nil {
		t.Fatal(err)
	}
	if err := n.StartProjections(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := n.Publish(ctx); err != nil {
		t.Fatal(err)
	}
	want, err := n.Rebuild(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	last, err := n.CatchUp(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var export bytes.Buffer
	if _, err := ledger.Export(ctx, n.Log, ws.ID(), 1, last, &export, nil); err != nil {
		t.Fatal(err)
	}
	n.Close()
	if err := os.RemoveAll(ws.StateDir()); err != nil {
		t.Fatal(err)
	}

	n, err = node.Open(ctx, ws, node.Options{Sync: embeddednats.SyncInterval})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	open := func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(export.Bytes())), nil }
	s, err := n.Import(ctx, open, nil)
	if err != nil || s.Through != last || s.Problem != nil {
		t.Fatalf("import: %+v, %v; want the events through seq %d", s, err, last)
	}
	got, err := n.Rebuild(ctx, nil)
	if err != nil || got != want {
		t.Fatalf("read models rebuilt from the import: %s, %v; want the original digest %s", got, err, want)
	}
}

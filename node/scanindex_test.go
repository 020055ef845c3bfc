package node_test

import (
	"context"
	"testing"
	"time"

	"github.com/clumsies/clumsies/node"
)

// A workspace opened again with an unchanged tree publishes nothing and
// reads no content file; an edit that restores the file's modification
// time is still published.
func TestPublish_UnchangedTreeReadsNothing(t *testing.T) {
	ctx := context.Background()
	const rules = 1000
	tree := newOldTree(t, rules)
	ws := tree.ws

	n := openNode(t, ws)
	pub, err := n.Publish(ctx)
	if err != nil {
		n.Close()
		t.Fatal(err)
	}
	if pub.Count < rules {
		n.Close()
		t.Fatalf("first publish appended %d events, want at least %d", pub.Count, rules)
	}
	if read := node.ScanRead(n); read < rules {
		n.Close()
		t.Fatalf("first publish read %d files, want at least %d", read, rules)
	}
	if len(pub.First) != node.FirstChanges || len(pub.Runs) != 1 || pub.Runs[0].To-pub.Runs[0].From+1 != uint64(pub.Count) {
		n.Close()
		t.Fatalf("first publish: got %d changes described and runs %v for %d events; want %d and one run", len(pub.First), pub.Runs, pub.Count, node.FirstChanges)
	}
	n.Close()

	// Opened again: nothing read, nothing published.
	n = openNode(t, ws)
	defer func() { n.Close() }()
	pub, err = n.Publish(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if pub.Count != 0 || node.ScanRead(n) != 0 {
		t.Fatalf("unchanged tree: published %d events and read %d files, want 0 and 0", pub.Count, node.ScanRead(n))
	}

	// Same size, modification time restored: published all the same.
	// (After a tick of the file system's coarse clock, at most 10 ms on
	// Linux, so that the change time moves.)
	time.Sleep(25 * time.Millisecond)
	tree.write(123, "# Rule XXXX\n\nBody.\n")
	pub, err = n.Publish(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if pub.Count != 1 || node.ScanRead(n) != 1 {
		t.Fatalf("one edited file: published %d events and read %d files, want 1 and 1", pub.Count, node.ScanRead(n))
	}
	if c := pub.First[0]; c.Path != "g03/RULE0123.md" || c.Removed {
		t.Fatalf("published %+v, want g03/RULE0123.md", c)
	}
}

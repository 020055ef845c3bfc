package node_test

import (
	"context"
	"testing"
	"time"

	"github.com/clumsies/clumsies/events"
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
	evs, err := n.Publish(ctx)
	if err != nil {
		n.Close()
		t.Fatal(err)
	}
	if len(evs) < rules {
		n.Close()
		t.Fatalf("first publish appended %d events, want at least %d", len(evs), rules)
	}
	if read := node.ScanRead(n); read < rules {
		n.Close()
		t.Fatalf("first publish read %d files, want at least %d", read, rules)
	}
	for _, ev := range evs {
		p, err := ev.Payload()
		if d, ok := p.(*events.PublishData); err != nil || ok && d.Body != "" {
			n.Close()
			t.Fatalf("Publish returned an event with its body: %v, %v", p, err)
		}
	}
	n.Close()

	// Opened again: nothing read, nothing published.
	n = openNode(t, ws)
	defer func() { n.Close() }()
	evs, err = n.Publish(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 0 || node.ScanRead(n) != 0 {
		t.Fatalf("unchanged tree: published %d events and read %d files, want 0 and 0", len(evs), node.ScanRead(n))
	}

	// Same size, modification time restored: published all the same.
	// (After a tick of the file system's coarse clock, at most 10 ms on
	// Linux, so that the change time moves.)
	time.Sleep(25 * time.Millisecond)
	tree.write(123, "# Rule XXXX\n\nBody.\n")
	evs, err = n.Publish(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 1 || node.ScanRead(n) != 1 {
		t.Fatalf("one edited file: published %d events and read %d files, want 1 and 1", len(evs), node.ScanRead(n))
	}
	d, err := evs[0].Payload()
	if pd, ok := d.(*events.PublishData); err != nil || !ok || pd.Path != "g03/RULE0123.md" {
		t.Fatalf("published %v, want g03/RULE0123.md", d)
	}
}

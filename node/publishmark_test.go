package node_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/node"
)

// After a publish, a workspace opened again on the same tree plans
// nothing (no scan, no listing of the manifest); a changed file, a
// catalog changed by another writer or a damaged mark each make the plan
// a full one again, and what they changed is published.
func TestPublish_UnchangedTreeIsNotPlanned(t *testing.T) {
	ctx := context.Background()
	const rules = 50
	tree := newOldTree(t, rules)
	ws := tree.ws

	// publish publishes with n and checks that it published want events
	// (at least rules when want < 0) and that n has skipped as many plans.
	publish := func(n *node.Node, want int, skipped int, why string) node.Published {
		t.Helper()
		p, err := n.Publish(ctx)
		if err != nil {
			t.Fatalf("%s: %v", why, err)
		}
		if p.Count != want && (want >= 0 || p.Count < rules) || node.PlansSkipped(n) != skipped {
			t.Fatalf("%s: published %d events with %d plans skipped, want %d and %d", why, p.Count, node.PlansSkipped(n), want, skipped)
		}
		return p
	}

	n := openNode(t, ws)
	publish(n, -1, 0, "first publish") // the rules, and what init wrote
	n.Close()

	n = openNode(t, ws)
	defer func() { n.Close() }()
	publish(n, 0, 1, "opened again on the same tree")
	if node.ScanRead(n) != 0 {
		t.Fatalf("a skipped plan read %d files", node.ScanRead(n))
	}

	// Another writer removes a rule from the catalog: the tree still
	// holds it, so the plan must look and publish it again.
	id, ok := n.Store.ObjectIDByPath(content.NSRule, "g03/RULE0013.md")
	if !ok {
		t.Fatal("g03/RULE0013.md is not published")
	}
	ev, err := events.New(ws.ID(), events.TypeCatalogRemove, events.RemoveData{ID: id, Kind: "rule", Path: "g03/RULE0013.md"})
	if err != nil {
		t.Fatal(err)
	}
	seq, err := n.Log.AppendExpecting(ctx, ev, events.Expectation{Aggregate: events.AggregateCatalog, LastSeq: n.Store.CatalogSeq()})
	if err != nil {
		t.Fatal(err)
	}
	if err := n.WaitApplied(ctx, seq); err != nil {
		t.Fatal(err)
	}
	p := publish(n, 1, 1, "after another writer's remove")
	if c := p.First[0]; c.Path != "g03/RULE0013.md" || c.Removed {
		t.Fatalf("published %+v; want g03/RULE0013.md", c)
	}
	publish(n, 0, 2, "in line again")

	// An edit that keeps the size and the modification time.
	time.Sleep(25 * time.Millisecond)
	tree.write(7, "# Rule XXXX\n\nBody.\n")
	p = publish(n, 1, 2, "after an edit")
	if c := p.First[0]; c.Path != "g07/RULE0007.md" || c.Removed {
		t.Fatalf("published %+v; want g07/RULE0007.md", c)
	}
	// The edit is within the racy window of that scan: the next plan
	// scans again, and once it is out of it, none does.
	publish(n, 0, 2, "right after an edit")
	tree.settle()
	publish(n, 0, 2, "a scan out of the edit's racy window")
	publish(n, 0, 3, "settled")

	// A damaged mark costs one full plan.
	mark := filepath.Join(ws.StateDir(), "publish-mark")
	if err := os.WriteFile(mark, []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	publish(n, 0, 3, "with a damaged mark")
	publish(n, 0, 4, "with the mark written again")

	// A file added and one removed while the workspace is closed.
	n.Close()
	tree.write(50, "# Rule 50\n")
	if err := os.Remove(tree.path(0)); err != nil {
		t.Fatal(err)
	}
	n = openNode(t, ws)
	publish(n, 2, 0, "a file added, one removed")
}

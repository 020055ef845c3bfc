package node_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/node"
)

// TestHandle_PublishThroughRemote checks that a publish asked for by a
// process that does not own the workspace says what the owner appended:
// the sequences it names hold exactly those events in the ledger (after
// another writer's event).
func TestHandle_PublishThroughRemote(t *testing.T) {
	ws, a, b := ownerAndRemote(t)
	ctx := context.Background()
	if _, err := a.Append(ctx, report(t, ws, "between two publishes")); err != nil {
		t.Fatal(err)
	}
	rules := filepath.Join(ws.ContentRoot(), "rules")
	if err := os.WriteFile(filepath.Join(rules, "style", "ERRORS.md"), []byte("# Errors\n\nEdited.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(rules, "workflow", "CODING.md")); err != nil {
		t.Fatal(err)
	}
	p, err := b.Publish(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := []node.PublishedChange{{Kind: "rule", Path: "style/ERRORS.md"}, {Kind: "workflow", Path: "workflow/CODING.md", Removed: true}}
	if p.Count != len(want) || len(p.First) != len(want) {
		t.Fatalf("got %+v, want %d changes", p, len(want))
	}
	var held []events.Event
	if err := b.Replay(ctx, 1, func(ev events.Event) error {
		if p.Holds(ev.Seq) {
			held = append(held, ev)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(held) != len(want) {
		t.Fatalf("the ledger holds %d events at the sequences %v, want %d", len(held), p.Runs, len(want))
	}
	for i, c := range p.First {
		w := want[i]
		w.ID = c.ID
		typ := events.TypeCatalogPublish
		if w.Removed {
			typ = events.TypeCatalogRemove
		}
		if c != w || held[i].Type != typ || !strings.Contains(string(held[i].Data), `"id":"`+c.ID+`"`) {
			t.Fatalf("change %d: got %+v and the event %s %s, want %+v as a %s", i, c, held[i].Type, held[i].Data, w, typ)
		}
	}
}

// TestHandle_PublishOwnerOfEarlierVersion checks that a publish through
// an owner that does not serve the summary says to restart that owner.
func TestHandle_PublishOwnerOfEarlierVersion(t *testing.T) {
	_, _, b := ownerAndRemote(t)
	restore := node.WithoutMethod("publishsummary")
	defer restore()
	_, err := b.Publish(context.Background())
	if err == nil || !strings.Contains(err.Error(), "earlier version of clumsies; restart it") {
		t.Fatalf("got %v, want an error that says to restart the owner", err)
	}
}

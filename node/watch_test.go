package node_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/clumsies/clumsies/node"
)

// published is one report of Options.WatchContent.
type published struct {
	p   node.Published
	err error
}

// TestHandle_WatchContent checks that an owner with WatchContent
// publishes the tree when it becomes the owner and after an edit, and
// reports each publish, a bad file as held back, publishing nothing of it.
func TestHandle_WatchContent(t *testing.T) {
	ws := newWorkspace(t)
	reports := make(chan published, 16)
	h := attach(t, ws, func(o *node.Options) {
		o.WatchContent = func(p node.Published, err error) { reports <- published{p, err} }
	})
	next := func(what string) published {
		t.Helper()
		select {
		case p := <-reports:
			return p
		case <-time.After(30 * time.Second):
			t.Fatalf("%s: no publish reported", what)
		}
		return published{}
	}
	// Becoming the owner publishes the starter tree.
	if p := next("initial"); p.err != nil || p.p.Count != 3 {
		t.Fatalf("initial publish: got %d events, %v; want the 3 starter files", p.p.Count, p.err)
	}
	if !h.IsOwner() {
		t.Fatal("the only handle does not own the workspace")
	}

	rule := filepath.Join(ws.ContentRoot(), "rules", "style", "ERRORS.md")
	if err := os.WriteFile(rule, []byte("# Errors\n\nEdited.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for {
		p := next("edit")
		if p.err != nil {
			t.Fatalf("publish after an edit: %v", p.err)
		}
		if p.p.Count == 0 {
			continue // a write seen in two parts: the first publish took it all
		}
		if c := p.p.First[0]; p.p.Count != 1 || c.Path != "style/ERRORS.md" || c.Removed {
			t.Fatalf("publish after an edit: got %d changes, the first %+v; want style/ERRORS.md published", p.p.Count, c)
		}
		break
	}

	if err := os.WriteFile(rule, []byte("# bad \xff\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for {
		p := next("bad file")
		if p.err != nil {
			t.Fatalf("publish with a bad file: %v, want it held back", p.err)
		}
		if p.p.Count != 0 {
			t.Fatalf("a bad file published %d events", p.p.Count)
		}
		if len(p.p.Held) == 1 && p.p.Held[0].Path == "rules/style/ERRORS.md" {
			break
		}
	}
}

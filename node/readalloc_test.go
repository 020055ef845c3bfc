package node_test

import (
	"context"
	"testing"

	"github.com/clumsies/clumsies/node"
	"github.com/clumsies/clumsies/projections"
)

// TestHandle_OwnerReadsWithoutContexts checks that a view and a listing
// on the owner in this process run under the caller's context: they read
// memory and wait on nothing, and a context of their own, bound to the
// owner's loss, cost every memload and memdisc allocations and
// registrations with the caller's context. Measured as the allocations
// the Handle adds to the read models' own, under a cancellable context
// (a tool call's).
func TestHandle_OwnerReadsWithoutContexts(t *testing.T) {
	h := attach(t, newWorkspace(t))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if _, err := h.Publish(ctx); err != nil {
		t.Fatal(err)
	}
	s := node.OwnerStore(h)
	if s == nil {
		t.Fatal("the only handle does not own the workspace")
	}
	items, err := h.List(ctx, projections.Filter{Kind: "rule"})
	if err != nil || len(items) == 0 {
		t.Fatalf("list: %d items, %v; want the starter rules", len(items), err)
	}
	id := items[0].ID
	for _, tc := range []struct {
		name          string
		handle, store func()
	}{
		{"view", func() { h.View(ctx, id) }, func() { s.View(ctx, id) }},
		{"list", func() { h.List(ctx, projections.Filter{Kind: "rule"}) }, func() { s.List(ctx, projections.Filter{Kind: "rule"}) }},
	} {
		added := testing.AllocsPerRun(200, tc.handle) - testing.AllocsPerRun(200, tc.store)
		// The Handle's own are one or none (the call's closure); a context
		// bound to the owner's loss adds four.
		if added > 2 {
			t.Errorf("%s: the Handle adds %.0f allocations to the read models' own, want at most 2 (no context of its own)", tc.name, added)
		}
	}
}

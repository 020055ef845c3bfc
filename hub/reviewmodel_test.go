package hub

import (
	"log/slog"
	"reflect"
	"testing"

	"github.com/clumsies/clumsies/catalog"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/hub/hubwire"
)

// TestReviews_KeptInRows checks that the review queue is a read model of
// the projector: a projector opened again on its folder serves the
// reviews at once, at the checkpoint it had, without applying the
// aggregate again, and goes on from there; the hub's outcome is laid over
// a review whatever the order it comes in.
func TestReviews_KeptInRows(t *testing.T) {
	dir := t.TempDir()
	nodes := map[string]hubwire.Node{nodeA.ID: nodeA, nodeB.ID: nodeB}
	open := func() *projector {
		t.Helper()
		p, err := openProjector(dir, func(id string) (hubwire.Node, bool) { n, ok := nodes[id]; return n, ok }, slog.New(slog.DiscardHandler))
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	p := open()
	draft := func(id string) events.DraftData {
		return events.DraftData{Resource: events.ResourceRule, ID: id, Op: events.DraftOpCreate, Path: "rules/" + id + ".md", Body: "# " + id}
	}
	one := event(t, nodeA.Workspace, events.TypeDraftSubmit, "2026-03-01", events.ReviewData{DraftID: "tmp-1", BaseRevision: 3})
	two := event(t, nodeB.Workspace, events.TypeDraftSubmit, "2026-03-01", events.ReviewData{DraftID: "tmp-2"})
	applyAll(t, p,
		sourced(nodeA, event(t, nodeA.Workspace, events.TypeDraftCreate, "2026-03-01", draft("tmp-1")), 1),
		sourced(nodeA, one, 2),
		sourced(nodeB, event(t, nodeB.Workspace, events.TypeDraftCreate, "2026-03-01", draft("tmp-2")), 1),
		sourced(nodeB, two, 2),
	)
	applyLedger(t, openLedger(t, p), ledgerEvent(t, 1, "blue", events.TypeReviewAccept, events.ReviewOutcomeData{ReviewID: one.ID, Reviewer: "rita", Revision: 4}))
	want := p.reviews.list(nil, true)
	if len(want) != 2 || want[0].Status == want[1].Status {
		t.Fatalf("reviews = %+v, want two, one accepted by the hub", want)
	}
	applied := p.Applied()
	if err := p.close(); err != nil {
		t.Fatal(err)
	}

	p = open()
	defer p.close()
	if p.Applied() != applied {
		t.Fatalf("reopened at seq %d, want the checkpoint %d", p.Applied(), applied)
	}
	// Served from the rows: nothing was applied since the reopen, the
	// hub's outcome included (the ledger's read side keeps its rows).
	openLedger(t, p)
	if got := p.reviews.list(nil, true); !reflect.DeepEqual(got, want) {
		t.Fatalf("reopened: reviews = %+v, want %+v", got, want)
	}
	if r, ok := p.reviews.get(one.ID); !ok || r.Body != "# tmp-1" || r.BaseRevision != 3 {
		t.Fatalf("review %s = %+v, want its body and base revision", one.ID, r)
	}
	// And it goes on from the checkpoint: node B's own decline ends its
	// review.
	applyAll(t, p, sourced(nodeB, event(t, nodeB.Workspace, events.TypeDraftDecline, "2026-03-02",
		events.ReviewData{DraftID: "tmp-2", Reviewer: "bob", Reason: "no"}), 3))
	if r, _ := p.reviews.get(two.ID); r.Status != catalog.StatusDeclined {
		t.Fatalf("review %s after the node declined it: %+v", two.ID, r)
	}
	if got := p.reviews.list(nil, false); len(got) != 0 {
		t.Fatalf("in review: %+v, want none", got)
	}
}

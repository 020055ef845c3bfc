package hub

import (
	"context"
	"errors"
	"log/slog"
	"testing"

	"github.com/cockroachdb/pebble/v2"

	"github.com/clumsies/clumsies/catalog"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/hub/hubwire"
)

// openLedger opens the read side of the hub's ledger in p's store, with
// p's review queue's outcomes.
func openLedger(t *testing.T, p *projector) *ledgerRead {
	t.Helper()
	r, err := openLedgerRead(p.db, p.reviews.outcomes, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// applyLedger applies evs to r in one batch and commits them.
func applyLedger(t *testing.T, r *ledgerRead, evs ...events.Event) {
	t.Helper()
	h := &Hub{ledger: r, logger: slog.New(slog.DiscardHandler)}
	if err := r.apply(context.Background(), evs, h.deriveCatalog); err != nil {
		t.Fatal(err)
	}
}

// ledgerEvent is an event of team's ledger at seq.
func ledgerEvent(t *testing.T, seq uint64, team string, typ events.Type, data any) events.Event {
	t.Helper()
	ev, err := events.New("", typ, data)
	if err != nil {
		t.Fatal(err)
	}
	ev.Seq, ev.Team = seq, team
	return ev
}

// TestLedgerRead_FirstOutcomeWins checks the one rule of review
// outcomes: of two outcomes the ledger records for one review, the first
// is the review's, for decisions (team) and for the review queue alike,
// whatever the batches they come in, and still after the read side is
// opened again from its rows.
func TestLedgerRead_FirstOutcomeWins(t *testing.T) {
	for _, batches := range [][]int{{3}, {1, 1, 1}} {
		dir := t.TempDir()
		p, err := openProjector(dir, func(string) (hubwire.Node, bool) { return hubwire.Node{}, false }, slog.New(slog.DiscardHandler))
		if err != nil {
			t.Fatal(err)
		}
		r := openLedger(t, p)
		p.reviews.byID["rev-1"] = &hubwire.Review{ID: "rev-1", Team: "blue", Status: catalog.StatusInReview}
		evs := []events.Event{
			ledgerEvent(t, 1, "blue", events.TypeReviewDecline, events.ReviewOutcomeData{ReviewID: "rev-1", Reviewer: "ann", Reason: "no"}),
			ledgerEvent(t, 2, "blue", events.TypeReviewAccept, events.ReviewOutcomeData{ReviewID: "rev-1", Reviewer: "bob", Revision: 7}),
			ledgerEvent(t, 3, "red", events.TypeReviewAccept, events.ReviewOutcomeData{ReviewID: "rev-2", Reviewer: "cy", Revision: 2}),
		}
		at := 0
		for _, n := range batches {
			applyLedger(t, r, evs[at:at+n]...)
			at += n
		}
		check := func(when string, r *ledgerRead, q *reviewQueue) {
			t.Helper()
			seq, o, decided := r.team("blue", "rev-1")
			if seq != 2 || !decided || o.id != evs[0].ID || o.typ != events.TypeReviewDecline || o.data.Reviewer != "ann" {
				t.Fatalf("%s, batches %v: team blue at %d, rev-1 decided %v as %+v; want 2, the first outcome (ann's decline)", when, batches, seq, decided, o)
			}
			if got, _ := q.get("rev-1"); got.Status != catalog.StatusDeclined || got.Reviewer != "ann" {
				t.Fatalf("%s, batches %v: the queue serves rev-1 as %+v, want ann's decline", when, batches, got)
			}
			if seq, _, _ := r.team("red", ""); seq != 3 || r.Applied() != 3 {
				t.Fatalf("%s, batches %v: team red at %d, applied %d; want 3, 3", when, batches, seq, r.Applied())
			}
		}
		check("applied", r, p.reviews)
		if err := p.close(); err != nil {
			t.Fatal(err)
		}
		db, err := pebble.Open(dir, &pebble.Options{Logger: quietPebble{}})
		if err != nil {
			t.Fatal(err)
		}
		q := newReviewQueue()
		q.byID["rev-1"] = &hubwire.Review{ID: "rev-1", Team: "blue", Status: catalog.StatusInReview}
		r, err = openLedgerRead(db, q.outcomes, slog.New(slog.DiscardHandler))
		if err != nil {
			t.Fatal(err)
		}
		check("opened again", r, q)
		db.Close()
	}
}

// TestLedgerRead_FailedReactorKeepsNothing has the reactor fail on a
// batch: nothing of it is kept (the checkpoint, the teams' sequences and
// the outcomes are as before it), and the same batch applied again
// counts once.
func TestLedgerRead_FailedReactorKeepsNothing(t *testing.T) {
	p, err := openProjector(t.TempDir(), func(string) (hubwire.Node, bool) { return hubwire.Node{}, false }, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer p.close()
	r := openLedger(t, p)
	first := ledgerEvent(t, 1, "blue", events.TypeReviewAccept, events.ReviewOutcomeData{ReviewID: "rev-1", Reviewer: "ann", Revision: 3})
	applyLedger(t, r, first)
	batch := []events.Event{
		ledgerEvent(t, 2, "blue", events.TypeReviewDecline, events.ReviewOutcomeData{ReviewID: "rev-2", Reviewer: "bob", Reason: "no"}),
		ledgerEvent(t, 3, "red", events.TypeReviewAccept, events.ReviewOutcomeData{ReviewID: "rev-3", Reviewer: "cy", Revision: 1}),
	}
	fault := errors.New("catalog bucket unreachable")
	err = r.apply(context.Background(), batch, func(context.Context, []*ledgerItem) error { return fault })
	if !errors.Is(err, fault) {
		t.Fatalf("apply with a failing reactor = %v, want %v", err, fault)
	}
	blue, _, _ := r.team("blue", "")
	red, _, _ := r.team("red", "")
	_, _, decided := r.team("blue", "rev-2")
	if r.Applied() != 1 || blue != 1 || red != 0 || decided {
		t.Fatalf("after a failed batch: applied %d, blue at %d, red at %d, rev-2 decided %v; want 1, 1, 0, false", r.Applied(), blue, red, decided)
	}
	applyLedger(t, r, batch...)
	blue, _, _ = r.team("blue", "")
	red, o, decided := r.team("red", "rev-3")
	if r.Applied() != 3 || blue != 2 || red != 3 || !decided || o.data.Reviewer != "cy" || r.read.Load() != 3 {
		t.Fatalf("the batch again: applied %d, blue at %d, red at %d, rev-3 decided %v as %+v, %d events read; want 3, 2, 3, cy's accept, 3 read",
			r.Applied(), blue, red, decided, o, r.read.Load())
	}
}

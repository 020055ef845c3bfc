package main

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/hub"
	"github.com/clumsies/clumsies/hub/hubwire"
)

// Sizes of the hubstart section: the hub ledger's events of the short
// (baseline) and the long history.
const (
	hubStartShort = 1_000
	hubStartLong  = 100_000
	// hubStartRestarts is how many times each hub is started again.
	hubStartRestarts = 3
)

// benchHubStart measures how long a hub takes to start, from Start to a
// push it serves (a push waits until the hub's ledger is applied), with a
// short and a long hub ledger, in the same run: a hub's start should not
// grow with its ledger's history.
func benchHubStart(ctx context.Context, b *bench) error {
	long := hubStartLong
	if b.quick {
		long = 20_000
	}
	b.printf("## Hub start with a long hub ledger (issue 31)\n\nA hub in this process whose ledger holds N events (9 review outcomes to 1 catalog publish of one of %d rules of 3 KB, appended to the ledger's stream directly), stopped, then started %d times: Start, then a push that changes nothing (it waits for the ledger to be applied). Median of the starts.\n\n", teamObjects, hubStartRestarts)
	b.printf("| hub ledger events | Start ms | Start to a push served ms |\n|---|---|---|\n")
	var base time.Duration
	for _, n := range []int{hubStartShort, long} {
		started, served, err := hubStartRun(ctx, b, n)
		if err != nil {
			return fmt.Errorf("%d events: %w", n, err)
		}
		b.printf("| %d | %.0f | %.0f |\n", n, ms(started), ms(served))
		if n == hubStartShort {
			base = served
		} else {
			b.printf("\nStart to a push served with %d events: %.2fx the %d-event baseline. The hub no longer reads its ledger at a start (its read side starts from its checkpoint); what still grows with the history is nats-server recovering the ledger's and the catalogs' streams and pebble opening the read models.\n\n",
				n, float64(served)/float64(base), hubStartShort)
		}
	}
	return nil
}

// hubStartRun makes a hub whose ledger holds n events and returns the
// median of its starts: to Start's return, and to a push served.
func hubStartRun(ctx context.Context, b *bench, n int) (started, served time.Duration, err error) {
	cfg, err := newHubDir(b)
	if err != nil {
		return 0, 0, err
	}
	h, err := hub.Start(ctx, cfg, nil)
	if err != nil {
		return 0, 0, err
	}
	tree := teamTree(0)
	if _, err := h.PushCatalog(ctx, "bench", tree); err != nil {
		h.Close()
		return 0, 0, err
	}
	err = fillHubLedger(ctx, h, n)
	if err == nil {
		// A push that changes nothing waits until the ledger is applied.
		_, err = h.PushCatalog(ctx, "bench", tree)
	}
	if cerr := h.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return 0, 0, err
	}
	var starts, serves []time.Duration
	for range hubStartRestarts {
		t0 := time.Now()
		h, err := hub.Start(ctx, cfg, nil)
		if err != nil {
			return 0, 0, err
		}
		starts = append(starts, time.Since(t0))
		_, err = h.PushCatalog(ctx, "bench", tree)
		serves = append(serves, time.Since(t0))
		if cerr := h.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return 0, 0, err
		}
	}
	return medianDuration(starts), medianDuration(serves), nil
}

// storedHubEvent is an event of the hub's ledger as the hub stores it.
type storedHubEvent struct {
	V int `json:"v"`
	hubwire.LedgerEvent
	Outcome events.Outcome `json:"outcome"`
}

// fillHubLedger appends events to h's ledger until it holds n more: for
// every catalog publish (the whole object again, as a push of it would
// record), 9 review outcomes of reviews of their own. They are published
// to the ledger's stream asynchronously, 1,000 at a time, the fastest way
// to a long history.
func fillHubLedger(ctx context.Context, h *hub.Hub, n int) error {
	m, err := h.TeamManifest(ctx, "bench")
	if err != nil {
		return err
	}
	objs := make([]hubwire.CatalogObject, len(m.Objects))
	for i, o := range m.Objects {
		if objs[i], err = h.TeamObject(ctx, "bench", o.ID); err != nil {
			return err
		}
	}
	js, done, err := hubJetStream(h)
	if err != nil {
		return err
	}
	defer done()
	now := events.FormatTime(time.Now())
	for i := range n {
		var typ events.Type
		var data any
		ws := ""
		if i%10 == 0 {
			o := objs[(i/10)%len(objs)]
			typ, data = events.TypeHubCatalogPublish, events.HubCatalogData{ID: o.ID, Kind: string(o.Kind), Path: o.Path, Hash: o.Hash,
				By: "push", Description: o.Description, Body: o.Body, Whole: true}
		} else {
			ws = "ws-bench"
			typ, data = events.TypeReviewDecline, events.ReviewOutcomeData{ReviewID: fmt.Sprintf("review-%08d", i), DraftID: "d-1",
				Node: "n-bench", SubmitSeq: uint64(i), Reviewer: "bench", Reason: "no"}
		}
		raw, err := json.Marshal(data)
		if err != nil {
			return err
		}
		id := events.NewID()
		body, err := json.Marshal(storedHubEvent{V: events.SchemaVersion, Outcome: events.OutcomeOK,
			LedgerEvent: hubwire.LedgerEvent{ID: id, Type: typ, Time: now, Team: "bench", WorkspaceID: ws, Data: raw}})
		if err != nil {
			return err
		}
		msg := nats.NewMsg(hubwire.LedgerSubject("bench", ws, string(typ)))
		msg.Data = body
		msg.Header.Set(nats.MsgIdHdr, id)
		if _, err := js.PublishMsgAsync(msg); err != nil {
			return err
		}
		if (i+1)%1000 == 0 || i == n-1 {
			// Wait for the acks of every 1,000: the client stalls past
			// its bound of outstanding messages.
			select {
			case <-js.PublishAsyncComplete():
			case <-ctx.Done():
				return ctx.Err()
			}
		}
	}
	return nil
}

// hubJetStream returns JetStream in h's account, and what closes it.
func hubJetStream(h *hub.Hub) (jetstream.JetStream, func(), error) {
	nc, err := h.Connect()
	if err != nil {
		return nil, nil, err
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		return nil, nil, err
	}
	return js, nc.Close, nil
}

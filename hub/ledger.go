package hub

import (
	"context"
	"fmt"
	"time"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/events/natsjs"
)

// ledgerOptions are those of the hub's ledger: an event id is remembered
// for a day.
var ledgerOptions = natsjs.Options{DedupeWindow: 24 * time.Hour}

// openLedger creates or updates the hub's ledger stream, replicated as
// the hub's streams are, and opens it as an events.Log. A ledger of an
// older hub, made without the schema's mark, gets it.
func (h *Hub) openLedger(ctx context.Context) error {
	layout := ledgerLayout{replicas: h.cfg.Replicas()}
	return retry(ctx, func(ctx context.Context) error {
		if _, err := h.js.CreateOrUpdateStream(ctx, natsjs.StreamConfig(layout, ledgerOptions)); err != nil {
			return fmt.Errorf("create the hub's ledger: %w", err)
		}
		log, err := natsjs.OpenLayout(ctx, h.nc, layout, ledgerOptions)
		if err != nil {
			return err
		}
		h.log = log
		return nil
	})
}

// Ledger returns the hub's ledger.
func (h *Hub) Ledger() events.Log { return h.log }

// record appends an event with a new id to the hub's ledger on the
// condition that the newest event of team is still the one at sequence
// last (0: the team has none): the decision it records was taken on the
// team's catalog and reviews as of that event. It returns the event's
// sequence, or an error wrapping events.ErrConflict when another event of
// the team came first (nothing was stored: read again and decide again).
func (h *Hub) record(ctx context.Context, team, ws string, typ events.Type, data any, last uint64) (uint64, error) {
	return h.recordID(ctx, team, ws, typ, events.NewID(), data, last)
}

// recordID is record of an event with id.
func (h *Hub) recordID(ctx context.Context, team, ws string, typ events.Type, id string, data any, last uint64) (uint64, error) {
	ev, err := events.New(ws, typ, data)
	if err != nil {
		return 0, err
	}
	ev.ID, ev.Team = id, team
	var seq uint64
	err = retryUnanswered(ctx, func(ctx context.Context) error {
		var err error
		seq, err = h.log.AppendExpecting(ctx, ev, events.Expectation{Aggregate: events.AggregateTeam, LastSeq: last})
		if err != nil {
			return fmt.Errorf("record %s in the hub's ledger: %w", typ, err)
		}
		return nil
	})
	return seq, err
}

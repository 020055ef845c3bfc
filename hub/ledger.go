package hub

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/hub/hubwire"
)

// ensureLedger creates the hub's ledger stream.
func (h *Hub) ensureLedger(ctx context.Context) error {
	return retry(ctx, func(ctx context.Context) error {
		_, err := h.js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
			Name:        hubwire.LedgerStream,
			Description: "the hub's own events: catalog changes and review outcomes, hubledger.<team>.<workspaceId>.<type>",
			Subjects:    []string{hubwire.LedgerPrefix + ".>"},
			Storage:     jetstream.FileStorage,
			Replicas:    h.cfg.Replicas(),
			Duplicates:  24 * time.Hour,
			DenyDelete:  true,
			DenyPurge:   true,
		})
		if err != nil {
			return fmt.Errorf("create the hub's ledger: %w", err)
		}
		return nil
	})
}

// record appends an event with a new id to the hub's ledger on the
// condition that the newest event of team is still the one at sequence
// last (0: the team has none): the decision it records was taken on the
// team's catalog and reviews as of that event. It returns the event's sequence, or an error
// wrapping events.ErrConflict when another event of the team came first
// (nothing was stored: read again and decide again).
func (h *Hub) record(ctx context.Context, team, ws string, typ events.Type, data any, last uint64) (uint64, error) {
	return h.recordID(ctx, team, ws, typ, events.NewID(), data, last)
}

// recordID is record of an event with id.
func (h *Hub) recordID(ctx context.Context, team, ws string, typ events.Type, id string, data any, last uint64) (uint64, error) {
	raw, err := json.Marshal(data)
	if err != nil {
		return 0, fmt.Errorf("encode %s: %w", typ, err)
	}
	ev := hubwire.LedgerEvent{ID: id, Type: typ, Time: events.FormatTime(time.Now()), Team: team, WorkspaceID: ws, Data: raw}
	b, _ := json.Marshal(ev)
	var seq uint64
	err = retryAfterReload(ctx, func(ctx context.Context) error {
		ack, err := h.js.Publish(ctx, hubwire.LedgerSubject(team, ws, string(typ)), b, jetstream.WithMsgID(ev.ID),
			jetstream.WithExpectLastSequenceForSubject(last, hubwire.LedgerTeamSubjects(team)))
		if wrongLastSequence(err) {
			return fmt.Errorf("record %s in the hub's ledger: %w: team %s moved past %d", typ, events.ErrConflict, team, last)
		}
		if err != nil {
			return fmt.Errorf("record %s in the hub's ledger: %w", typ, err)
		}
		seq = ack.Sequence
		return nil
	})
	return seq, err
}

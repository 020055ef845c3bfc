package hub

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"
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

// record appends an event to the hub's ledger, once per id (within the
// stream's de-duplication window), and returns its sequence.
func (h *Hub) record(ctx context.Context, team, ws string, typ events.Type, id string, data any) (uint64, error) {
	raw, err := json.Marshal(data)
	if err != nil {
		return 0, fmt.Errorf("encode %s: %w", typ, err)
	}
	if id == "" {
		id = events.NewID()
	}
	ev := hubwire.LedgerEvent{ID: id, Type: typ, Time: events.FormatTime(time.Now()), Team: team, WorkspaceID: ws, Data: raw}
	b, _ := json.Marshal(ev)
	msg := &nats.Msg{Subject: hubwire.LedgerSubject(team, ws, string(typ)), Data: b, Header: nats.Header{}}
	msg.Header.Set(nats.MsgIdHdr, id)
	var seq uint64
	err = retryAfterReload(ctx, func(ctx context.Context) error {
		ack, err := h.js.PublishMsg(ctx, msg)
		if err != nil {
			return fmt.Errorf("record %s in the hub's ledger: %w", typ, err)
		}
		seq = ack.Sequence
		return nil
	})
	return seq, err
}

package hub

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/clumsies/clumsies/events"
)

// LedgerStream is the hub's own ledger: what the hub decided, as
// immutable events (catalog changes, review outcomes). Its subjects are
// hubledger.<team>.<workspaceId>.<type>, with "-" for the workspace of a
// team-wide event (a catalog change); a node of the team mirrors the
// events of its own workspace.
const LedgerStream = "HUB_LEDGER"

// ledgerPrefix is the first token of the hub ledger's subjects.
const ledgerPrefix = "hubledger"

// teamWide stands for the workspace of a team-wide event.
const teamWide = "-"

// Types of the hub's own events.
const (
	LedgerCatalogPublish = "catalog.publish" // an object of a team's catalog written
	LedgerCatalogRemove  = "catalog.remove"  // an object of a team's catalog removed
	LedgerReviewAccept   = "review.accept"   // a submitted draft accepted: the catalog written
	LedgerReviewDecline  = "review.decline"  // a submitted draft declined by a reviewer
	LedgerReviewConflict = "review.conflict" // a submitted draft whose base is no longer the object's revision
)

// LedgerEvent is one event of the hub's ledger.
type LedgerEvent struct {
	// ID is a ULID, or an id derived from what the event decides (so that
	// deciding twice stores it once).
	ID          string          `json:"id"`
	Type        string          `json:"type"`
	Time        string          `json:"time"`
	Team        string          `json:"team"`
	WorkspaceID string          `json:"workspaceId,omitempty"`
	Data        json.RawMessage `json:"data"`
}

// CatalogEventData is the payload of catalog.publish and catalog.remove.
type CatalogEventData struct {
	ID       string `json:"id"`
	Kind     string `json:"kind"`
	Path     string `json:"path"`
	Hash     string `json:"hash,omitempty"`
	Revision uint64 `json:"revision"`
	// By is who changed it: "push" or the reviewer of an accepted draft.
	By string `json:"by"`
}

// LedgerSubject is the subject of an event of type typ about team's
// workspace ws ("" for a team-wide event).
func LedgerSubject(team, ws, typ string) string {
	if ws == "" {
		ws = teamWide
	}
	return ledgerPrefix + "." + team + "." + ws + "." + typ
}

// ensureLedger creates the hub's ledger stream.
func (h *Hub) ensureLedger(ctx context.Context) error {
	return retry(ctx, func(ctx context.Context) error {
		_, err := h.js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
			Name:        LedgerStream,
			Description: "the hub's own events: catalog changes and review outcomes, hubledger.<team>.<workspaceId>.<type>",
			Subjects:    []string{ledgerPrefix + ".>"},
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
func (h *Hub) record(ctx context.Context, team, ws, typ, id string, data any) (uint64, error) {
	raw, err := json.Marshal(data)
	if err != nil {
		return 0, fmt.Errorf("encode %s: %w", typ, err)
	}
	if id == "" {
		id = events.NewID()
	}
	ev := LedgerEvent{ID: id, Type: typ, Time: events.FormatTime(time.Now()), Team: team, WorkspaceID: ws, Data: raw}
	b, _ := json.Marshal(ev)
	msg := &nats.Msg{Subject: LedgerSubject(team, ws, typ), Data: b, Header: nats.Header{}}
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

package hub

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/events/natsjs"
	"github.com/clumsies/clumsies/hub/hubwire"
)

// ledgerBatch bounds the events of the hub's ledger applied in one commit.
const ledgerBatch = 1000

// followLedger keeps the read side of the hub's ledger (ledgerRead) and
// the team catalogs derived from it (deriveCatalog) until ctx ends. From
// the event after the checkpoint on, it hands the ledger's events to the
// models in batches, has the reactor derive the batch's catalog changes,
// and commits the models' rows with the checkpoint, a batch of up to
// ledgerBatch events whenever the ledger has nothing more to give right
// now. When a batch fails, the models are loaded again from the
// store and the ledger is read again from the checkpoint a second later:
// the reactor is idempotent. ready is called once what the ledger held
// when it was first read is applied.
//
// This is the hub ledger's one follow loop, for the models and the
// reactor alike.
func (h *Hub) followLedger(ctx context.Context, ready func()) {
	var once sync.Once
	caughtUp := func() { once.Do(ready) }
	defer caughtUp()
	for ctx.Err() == nil {
		err := h.followLedgerFrom(ctx, caughtUp)
		if ctx.Err() != nil {
			return
		}
		h.logger.Warn("following the hub's ledger failed; retrying from its checkpoint", "err", err)
		if err := h.ledger.load(); err != nil {
			h.logger.Warn("loading the read models of the hub's ledger failed", "err", err)
		}
		select {
		case <-ctx.Done():
		case <-time.After(time.Second):
		}
	}
}

// followLedgerFrom applies the ledger from the checkpoint on, until ctx
// ends or a batch fails. It reads the ledger's stream as a natsjs.Source,
// which says how many messages follow each one, so that a batch is
// committed as soon as the ledger has nothing more to give right now.
func (h *Hub) followLedgerFrom(ctx context.Context, caughtUp func()) error {
	src, err := natsjs.OpenSource(ctx, h.nc, hubwire.LedgerStream, natsjs.Options{})
	if err != nil {
		return fmt.Errorf("bind the hub's ledger: %w", err)
	}
	until, err := src.LastSeq(ctx)
	if err != nil {
		return fmt.Errorf("read the hub's ledger: %w", err)
	}
	if h.ledger.Applied() > until {
		h.logger.Warn("the hub's ledger holds fewer events than its read models applied (it was made again): applying it from its first event",
			"applied", h.ledger.Applied(), "last", until)
		if err := h.ledger.reset(); err != nil {
			return err
		}
	}
	if h.ledger.Applied() >= until {
		caughtUp()
	}
	var batch []events.Event
	return src.Subscribe(ctx, h.ledger.Applied()+1, func(m natsjs.Message) error {
		var ev events.Event
		if err := (ledgerLayout{}).DecodeStoredInto(&ev, m.Data); err != nil {
			return &events.StoredError{Seq: m.Seq, Err: err}
		}
		ev.Seq = m.Seq
		batch = append(batch, ev)
		if len(batch) < ledgerBatch && m.Pending > 0 {
			return nil
		}
		err := h.applyLedger(ctx, batch)
		batch = batch[:0]
		if err == nil && m.Seq >= until {
			caughtUp()
		}
		return err
	})
}

// applyLedger hands batch to the ledger's models, derives its catalog
// changes, then commits the models with the batch's last sequence.
func (h *Hub) applyLedger(ctx context.Context, batch []events.Event) error {
	items := make([]*ledgerItem, len(batch))
	for i := range batch {
		it, err := decodeLedgerItem(&batch[i])
		if err != nil {
			h.logger.Warn("the hub's ledger holds an event it cannot read; skipped", "err", err)
		}
		items[i] = it
		h.ledger.apply(it)
	}
	if err := h.deriveCatalog(ctx, items); err != nil {
		return err
	}
	return h.ledger.commit(batch[len(batch)-1].Seq, len(batch))
}

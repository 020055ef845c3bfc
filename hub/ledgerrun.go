package hub

import (
	"context"
	"time"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections/engine"
)

// ledgerBatch bounds the events of the hub's ledger applied in one commit.
const ledgerBatch = 1000

// ledgerRetry is the wait before the ledger's read side follows the
// ledger again after a batch or a read failed.
var ledgerRetry = engine.Backoff{Min: time.Second, Max: 4 * time.Second}

// followLedger keeps the read side of the hub's ledger (ledgerRead) and
// the team catalogs derived from it (deriveCatalog) current with the
// ledger until ctx ends, on the engine's runner: from the event after the
// checkpoint on, batches of up to ledgerBatch events, each committed as
// soon as the ledger has nothing more to give right now, the catalog
// reactor run on each before its commit. A failed batch is loaded back
// from the store and the ledger is followed again from the checkpoint
// after ledgerRetry's wait: the reactor is idempotent. A ledger that
// holds fewer events than the checkpoint (made again) is applied from
// its first event (ledgerRead.rewind).
func (h *Hub) followLedger(ctx context.Context) {
	r := engine.Runner[events.Event]{
		Seq: func(ev events.Event) uint64 { return ev.Seq },
		Apply: func(batch []events.Event) error {
			return h.ledger.apply(ctx, batch, h.deriveCatalog)
		},
		Progress:  &h.ledger.progress,
		BatchSize: ledgerBatch,
		Retry:     &ledgerRetry,
		OnRetry: func(err error, wait time.Duration) {
			h.logger.Warn("following the hub's ledger failed; retrying from its checkpoint", "err", err, "in", wait)
		},
		Behind: h.ledger.rewind,
	}
	r.Run(ctx, h.log)
}

// resumeLedgerRead opens the ledger's read side in the hub's read models'
// store and returns the ledger's last sequence (0 if the ledger does not
// answer: the start then waits for none of it). Before anything follows
// the ledger, a ledger that holds fewer events than the checkpoint (made
// again) has the read side filled again from its first event, as the
// runner does at every follow: a hub that starts serves nothing decided
// on the old ledger's sequences.
func (h *Hub) resumeLedgerRead(ctx context.Context) (last uint64, err error) {
	if h.ledger, err = openLedgerRead(h.proj.db, h.reviews.outcomes, h.logger); err != nil {
		return 0, err
	}
	err = retryUnanswered(ctx, func(ctx context.Context) error {
		last, err = h.log.LastSeq(ctx)
		return err
	})
	if err != nil {
		// The runner checks again at its first follow (Behind).
		h.logger.Warn("the hub's ledger did not answer at start; its read side follows it from the checkpoint once it does", "err", err)
		return 0, nil
	}
	if last < h.ledger.Applied() {
		return last, h.ledger.rewind(last)
	}
	return last, nil
}

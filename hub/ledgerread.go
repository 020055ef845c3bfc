package hub

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/cockroachdb/pebble/v2"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections/engine"
)

// The read side of the hub's ledger is a store of the projection engine
// (projections/engine) in the hub's read models' pebble, under
// prefixLedger, with a registry of its own: its models fold the ledger's
// events (ledgerItem) and are committed with its own checkpoint, the
// ledger's last sequence applied, so that a hub starts from there
// instead of replaying its ledger. Its models: teamSeqs (loaded into
// memory: one row per team) and reviewOutcomes (on disk only: one row per
// review), so that what a start loads does not grow with the history.

// ledgerReadLayout is the version of the rows of the ledger's read side,
// kept in its layout row. Rows of an older layout are thrown away and
// filled again from the ledger; a store without them (a hub older than
// the read side's rows) fills them from the ledger once.
const ledgerReadLayout = 1

// ledgerItem is one event of the hub's ledger, with its payload decoded
// when a model or the catalog reactor reads it: what they apply.
type ledgerItem struct {
	ev *events.Event
	// outcome is set for a review outcome, change for a catalog change.
	outcome *events.ReviewOutcomeData
	change  *events.HubCatalogData
}

// decodeLedgerItem decodes ev for the models. An event whose payload
// does not decode is returned with an error and no payload: the models
// and the reactor pass over it.
func decodeLedgerItem(ev *events.Event) (*ledgerItem, error) {
	it := &ledgerItem{ev: ev}
	switch {
	case ev.Type == events.TypeHubCatalogPublish || ev.Type == events.TypeHubCatalogRemove:
		var d events.HubCatalogData
		if err := json.Unmarshal(ev.Data, &d); err != nil {
			return it, fmt.Errorf("a catalog change the hub cannot read, at seq %d: %w", ev.Seq, err)
		}
		it.change = &d
	default:
		if _, ok := outcomeStatus(ev.Type); !ok {
			return it, nil
		}
		var o events.ReviewOutcomeData
		if err := json.Unmarshal(ev.Data, &o); err != nil {
			return it, fmt.Errorf("a review outcome the hub cannot read, at seq %d: %w", ev.Seq, err)
		}
		it.outcome = &o
	}
	return it, nil
}

// ledgerRead is the read side of the hub's ledger: its models, and how
// far they have come. Every event through applied is applied and
// committed (the team catalogs' entries derived from it too).
type ledgerRead struct {
	db       *pebble.DB
	reg      engine.Registry[*ledgerItem]
	teams    *teamSeqs
	outcomes *reviewOutcomes
	// view is held to apply an item to every model, to commit them, and
	// to read them together (team): a reader sees each event in all of
	// them or in none.
	view sync.RWMutex

	mu      sync.Mutex
	applied uint64
	layout  uint64
	changed chan struct{}
	// read counts the events applied since the store was opened.
	read uint64
}

// openLedgerRead opens the ledger's read side in db, with outcomes as
// its model of review outcomes, and loads it; rows of an older layout
// are thrown away.
func openLedgerRead(db *pebble.DB, outcomes *reviewOutcomes) (*ledgerRead, error) {
	r := &ledgerRead{db: db, changed: make(chan struct{})}
	r.teams = engine.Register(&r.reg, newTeamSeqs())
	r.outcomes = engine.Register(&r.reg, outcomes)
	if err := r.load(); err != nil {
		return nil, err
	}
	if r.applied > 0 && r.layout < ledgerReadLayout {
		if err := r.reset(); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// load loads the models and the checkpoint from the store.
func (r *ledgerRead) load() error {
	var cp, layout uint64
	err := r.reg.Load(ledgerSideRows{r.db}, func(k string, v []byte) error {
		switch k {
		case keyLedgerCheckpoint:
			cp = getUint(v)
		case keyLedgerLayout:
			layout = getUint(v)
		default:
			return engine.ErrUnknownRow
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("load the read models of the hub's ledger: %w", err)
	}
	r.view.Lock()
	r.teams.k.adopt()
	r.outcomes.bind(engine.NewDiskRows(r.db))
	r.view.Unlock()
	r.mu.Lock()
	r.applied, r.layout = cp, layout
	r.mu.Unlock()
	return nil
}

// reset throws the rows of the ledger's read side away, so that it is
// filled again from the ledger's first event.
func (r *ledgerRead) reset() error {
	if err := r.db.DeleteRange([]byte(prefixLedger), engine.PrefixEnd(prefixLedger), pebble.NoSync); err != nil {
		return fmt.Errorf("throw away the read models of the hub's ledger: %w", err)
	}
	return r.load()
}

// apply hands it to every model.
func (r *ledgerRead) apply(it *ledgerItem) {
	r.view.Lock()
	defer r.view.Unlock()
	r.reg.Apply(it)
}

// commit writes what the models applied since the last commit with the
// checkpoint last, in one batch, and wakes who waits for it.
func (r *ledgerRead) commit(last uint64, n int) error {
	r.view.Lock() // a reader sees the rows written either pending or committed
	err := r.reg.Commit(r.db, nil, func(w *engine.RowWriter) {
		w.Set([]byte(keyLedgerCheckpoint), putUint(last))
		w.Set([]byte(keyLedgerLayout), putUint(ledgerReadLayout))
	}, nil)
	r.view.Unlock()
	r.outcomes.committed(err != nil)
	if err != nil {
		return fmt.Errorf("commit the read models of the hub's ledger: %w", err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.applied, r.layout = max(r.applied, last), ledgerReadLayout
	r.read += uint64(n)
	close(r.changed)
	r.changed = make(chan struct{})
	return nil
}

// Applied returns the checkpoint: the last sequence of the ledger applied.
func (r *ledgerRead) Applied() uint64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.applied
}

// team returns the sequence of team's newest applied event (0: none) and
// the outcome of review id the ledger records, if any.
func (r *ledgerRead) team(team, id string) (uint64, recordedOutcome, bool) {
	r.view.RLock()
	defer r.view.RUnlock()
	o, ok := r.outcomes.get(id)
	return r.teams.last(team), o, ok
}

// waitApplied waits until every event up to seq is applied, or ctx ends.
func (r *ledgerRead) waitApplied(ctx context.Context, seq uint64) error {
	for {
		r.mu.Lock()
		done, ch := r.applied >= seq, r.changed
		r.mu.Unlock()
		if done {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("wait for the hub's ledger to be applied up to %d: %w", seq, ctx.Err())
		case <-ch:
		}
	}
}

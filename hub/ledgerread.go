package hub

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"

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
// The engine's runner (engine.Runner, see ledgerrun.go) keeps it current
// with the ledger, as it keeps the workspace's store and the hub
// aggregate's projector.

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

// ledgerState is the registry of the ledger's models and the read side's
// meta rows (the checkpoint, the layout): what engine.Committer commits
// and loads again.
type ledgerState struct {
	reg      engine.Registry[*ledgerItem]
	teams    *teamSeqs
	outcomes *reviewOutcomes

	checkpoint uint64
	layout     uint64
}

// Registry returns the ledger's models, for the engine's Committer.
func (st *ledgerState) Registry() *engine.Registry[*ledgerItem] { return &st.reg }

// WriteMeta writes the checkpoint and the layout.
func (st *ledgerState) WriteMeta(w *engine.RowWriter) {
	w.Set([]byte(keyLedgerCheckpoint), putUint(st.checkpoint))
	w.Set([]byte(keyLedgerLayout), putUint(ledgerReadLayout))
}

func (st *ledgerState) loadMeta(k string, v []byte) error {
	switch k {
	case keyLedgerCheckpoint:
		st.checkpoint = getUint(v)
	case keyLedgerLayout:
		st.layout = getUint(v)
	default:
		return engine.ErrUnknownRow
	}
	return nil
}

// loadLedgerState registers the ledger's models over db, outcomes among
// them (the review queue's, which outlives a load), and loads them.
func loadLedgerState(db *pebble.DB, outcomes *reviewOutcomes) (*ledgerState, error) {
	st := &ledgerState{}
	st.teams = engine.Register(&st.reg, newTeamSeqs())
	st.outcomes = engine.Register(&st.reg, outcomes)
	if err := st.reg.Load(ledgerSideRows{db}, st.loadMeta); err != nil {
		return nil, fmt.Errorf("load the read models of the hub's ledger: %w", err)
	}
	st.teams.k.adopt()
	outcomes.bind(engine.NewDiskRows(db))
	return st, nil
}

// ledgerRead is the read side of the hub's ledger: its models, and how
// far they have come. Every event through progress is applied and
// committed (the team catalogs' entries derived from it too).
type ledgerRead struct {
	db        *pebble.DB
	committer engine.Committer[*ledgerItem, *ledgerState]
	logger    *slog.Logger

	// view guards st: it is held to apply a batch to every model, to
	// commit them or load them again, and to read them together (team):
	// a reader sees each event in all of them or in none. Only the runner
	// (apply, reset) replaces st.
	view sync.RWMutex
	st   *ledgerState

	// progress is the checkpoint as readers see it, and their waits.
	progress engine.Progress
	// read counts the events applied since the store was opened.
	read atomic.Uint64
}

// openLedgerRead opens the ledger's read side in db, with outcomes as
// its model of review outcomes, and loads it; rows of an older layout
// are thrown away.
func openLedgerRead(db *pebble.DB, outcomes *reviewOutcomes, logger *slog.Logger) (*ledgerRead, error) {
	r := &ledgerRead{db: db, logger: logger}
	r.committer = engine.Committer[*ledgerItem, *ledgerState]{DB: db, Load: func(db *pebble.DB) (*ledgerState, error) {
		return loadLedgerState(db, outcomes)
	}}
	st, err := r.committer.Load(db)
	if err != nil {
		return nil, err
	}
	r.st = st
	r.progress.Set(st.checkpoint)
	if st.checkpoint > 0 && st.layout < ledgerReadLayout {
		if err := r.reset(); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// reset throws the rows of the ledger's read side away, so that it is
// filled again from the ledger's first event.
func (r *ledgerRead) reset() error {
	if err := r.db.DeleteRange([]byte(prefixLedger), engine.PrefixEnd(prefixLedger), pebble.NoSync); err != nil {
		return fmt.Errorf("throw away the read models of the hub's ledger: %w", err)
	}
	if err := r.reload(); err != nil {
		return err
	}
	r.progress.Set(0)
	return nil
}

// rewind is the runner's Behind: the ledger ends at last, before the
// checkpoint (it was made again), so the read side is filled again from
// its first event rather than decide on the old ledger's sequences.
func (r *ledgerRead) rewind(last uint64) error {
	r.logger.Warn("the hub's ledger holds fewer events than its read models applied (it was made again): applying it from its first event",
		"applied", r.progress.Seq(), "last", last)
	return r.reset()
}

// reload throws what was applied and not committed away and loads the
// models again from the store.
func (r *ledgerRead) reload() error {
	r.view.Lock()
	defer r.view.Unlock()
	st, err := r.committer.Reload()
	if err != nil {
		return fmt.Errorf("%w: %w", engine.ErrReload, err)
	}
	r.st = st
	return nil
}

// reactor is work done with a batch's items before the batch is
// committed (deriveCatalog): if it fails, nothing of the batch is kept.
type reactor func(ctx context.Context, items []*ledgerItem) error

// apply is the runner's Apply: it hands the events of batch after the
// checkpoint to every model, has react do its work with them, then
// commits the models with the checkpoint in one batch and wakes who
// waits for it. If react or the commit fails, nothing of the batch is
// kept: the models are loaded again from the store.
func (r *ledgerRead) apply(ctx context.Context, batch []events.Event, react reactor) error {
	st := r.st
	items := make([]*ledgerItem, 0, len(batch))
	r.view.Lock()
	for i := range batch {
		if batch[i].Seq <= st.checkpoint {
			continue
		}
		it, err := decodeLedgerItem(&batch[i])
		if err != nil {
			r.logger.Warn("the hub's ledger holds an event it cannot read; skipped", "err", err)
		}
		st.reg.Apply(it)
		st.checkpoint = it.ev.Seq
		items = append(items, it)
	}
	r.view.Unlock()
	if len(items) == 0 {
		return nil
	}
	if err := react(ctx, items); err != nil {
		return errors.Join(err, r.reload())
	}
	r.view.Lock() // a reader sees the rows written either pending or committed
	next, err := r.committer.Commit(st, nil, nil)
	r.st = next
	r.view.Unlock()
	st.outcomes.committed(err != nil)
	if err != nil {
		return fmt.Errorf("commit the read models of the hub's ledger: %w", err)
	}
	r.read.Add(uint64(len(items)))
	r.progress.Advance(st.checkpoint)
	return nil
}

// Applied returns the checkpoint: the last sequence of the ledger applied.
func (r *ledgerRead) Applied() uint64 { return r.progress.Seq() }

// team returns the sequence of team's newest applied event (0: none) and
// the outcome of review id the ledger records, if any.
func (r *ledgerRead) team(team, id string) (uint64, recordedOutcome, bool) {
	r.view.RLock()
	defer r.view.RUnlock()
	o, ok := r.st.outcomes.get(id)
	return r.st.teams.last(team), o, ok
}

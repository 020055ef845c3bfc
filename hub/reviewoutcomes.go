package hub

import (
	"encoding/json"
	"fmt"
	"sync"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections/engine"
)

// reviewOutcomes is the one read model of the review outcomes of the
// hub's ledger (review.accept, review.decline, review.conflict), by
// review id, kept in rows on disk only (under prefixLedgerOutcome): their
// number grows with the hub's history, and a hub's start must not. A
// decision reads it to know whether a review is decided, and the review
// queue lays it over the review it serves.
//
// Its rule: the first outcome the ledger records for a review is the
// review's outcome, and any later one is ignored. The hub records no
// second one: a decision reads that the review is not decided yet and is
// recorded on the condition that no event of the team came after what it
// read (events.Log.AppendExpecting), so of two hubs deciding at once one
// is refused. A ledger that holds a second outcome anyway keeps its first.
type reviewOutcomes struct {
	// mu guards rows, which the ledger's follower and the readers share.
	mu   sync.Mutex
	rows *engine.DiskRows // nil until bound to a store: no outcome
	// fresh holds the reviews whose outcome Apply recorded since the last
	// Write, for the store to hand to recorded once they are committed.
	fresh []string
	// recorded, when set, learns the id of every review whose outcome
	// was committed.
	recorded func(reviewID string)
}

// recordedOutcome is a review outcome of the hub's ledger.
type recordedOutcome struct {
	id   string // the event's
	typ  events.Type
	data events.ReviewOutcomeData
}

// outcomeRow is the row of a recorded outcome.
type outcomeRow struct {
	ID   string                   `json:"id"`
	Type events.Type              `json:"type"`
	Data events.ReviewOutcomeData `json:"data"`
}

func newReviewOutcomes() *reviewOutcomes { return &reviewOutcomes{} }

// bind makes the model keep its rows in rows.
func (m *reviewOutcomes) bind(rows *engine.DiskRows) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.rows, m.fresh = rows, nil
}

func (m *reviewOutcomes) Prefixes() []string { return []string{prefixLedgerOutcome} }
func (m *reviewOutcomes) DiskOnly() []string { return m.Prefixes() }

func (m *reviewOutcomes) Load(k string, _ []byte) error {
	return fmt.Errorf("%w: %q", engine.ErrUnknownRow, k)
}

// Apply records the outcome of it, unless its review has one.
func (m *reviewOutcomes) Apply(it *ledgerItem) {
	if it.outcome == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	k := []byte(prefixLedgerOutcome + it.outcome.ReviewID)
	if m.rows.Has(k) {
		return
	}
	b, err := json.Marshal(outcomeRow{ID: it.ev.ID, Type: it.ev.Type, Data: *it.outcome})
	if err != nil {
		m.rows.Fail(fmt.Errorf("encode the outcome of review %s: %w", it.outcome.ReviewID, err))
		return
	}
	m.rows.Set(k, b)
	m.fresh = append(m.fresh, it.outcome.ReviewID)
}

func (m *reviewOutcomes) Write(w *engine.RowWriter) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.rows.Write(w)
}

// committed hands the reviews whose outcome was committed to recorded;
// forgotten reports whether the batch was not committed (its outcomes
// are applied again).
func (m *reviewOutcomes) committed(forgotten bool) {
	m.mu.Lock()
	fresh := m.fresh
	m.fresh = nil
	m.mu.Unlock()
	if forgotten || m.recorded == nil {
		return
	}
	for _, id := range fresh {
		m.recorded(id)
	}
}

// get returns the outcome of review id, if the ledger records one.
func (m *reviewOutcomes) get(id string) (recordedOutcome, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.rows == nil {
		return recordedOutcome{}, false
	}
	v, ok := m.rows.Get([]byte(prefixLedgerOutcome + id))
	if !ok {
		return recordedOutcome{}, false
	}
	var row outcomeRow
	if err := json.Unmarshal(v, &row); err != nil {
		return recordedOutcome{}, false
	}
	return recordedOutcome{id: row.ID, typ: row.Type, data: row.Data}, true
}

package hub

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections/engine"
)

// reviewOutcomes is the one read model of the review outcomes of the
// hub's ledger (review.accept, review.decline, review.conflict), by
// review id, kept in rows (under prefixLedgerOutcome) and in memory: a
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
	k *keyed[recordedOutcome]
	// recorded, when set, learns the id of every review whose outcome
	// Apply recorded.
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

func newReviewOutcomes() *reviewOutcomes { return &reviewOutcomes{k: newKeyed[recordedOutcome]()} }

func (m *reviewOutcomes) Prefixes() []string { return []string{prefixLedgerOutcome} }

func (m *reviewOutcomes) Load(k string, v []byte) error {
	id, ok := strings.CutPrefix(k, prefixLedgerOutcome)
	if !ok {
		return fmt.Errorf("%w: %q", engine.ErrUnknownRow, k)
	}
	var row outcomeRow
	if err := json.Unmarshal(v, &row); err != nil {
		return err
	}
	m.k.load(id, recordedOutcome{id: row.ID, typ: row.Type, data: row.Data})
	return nil
}

// Apply records the outcome of it, unless its review has one.
func (m *reviewOutcomes) Apply(it *ledgerItem) {
	if it.outcome == nil {
		return
	}
	o := recordedOutcome{id: it.ev.ID, typ: it.ev.Type, data: *it.outcome}
	first := m.k.update(o.data.ReviewID, func(_ recordedOutcome, decided bool) (recordedOutcome, bool) { return o, !decided })
	if first && m.recorded != nil {
		m.recorded(o.data.ReviewID)
	}
}

func (m *reviewOutcomes) Write(w *engine.RowWriter) {
	m.k.write(w, prefixLedgerOutcome, func(o recordedOutcome) []byte {
		b, err := json.Marshal(outcomeRow{ID: o.id, Type: o.typ, Data: o.data})
		if err != nil {
			w.Fail(fmt.Errorf("encode the outcome of review %s: %w", o.data.ReviewID, err))
		}
		return b
	})
}

// get returns the outcome of review id, if the ledger records one.
func (m *reviewOutcomes) get(id string) (recordedOutcome, bool) { return m.k.get(id) }

package hub

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/clumsies/clumsies/catalog"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/hub/hubwire"
	"github.com/clumsies/clumsies/projections/engine"
)

// reviewsModel is the review queue's read model of the aggregate: the
// drafts of every node as their events leave them, the reviews they
// submitted and the review each draft has in progress, kept in rows
// (key r) and in memory (the reviewQueue), so that a hub that starts
// again serves its queue from its rows instead of replaying the
// aggregate.
type reviewsModel struct {
	q *reviewQueue
	// loading holds what Load read until adopt hands it to q at once.
	loading *reviewQueue
}

// The rows of reviewsModel, under "r"+sep: a draft in progress, a review,
// and the review a draft has in progress.
const (
	prefixReviews     = "r" + sep
	prefixReviewDraft = prefixReviews + "d" + sep // + node + sep + draft id -> catalog.Draft (JSON)
	prefixReviewByID  = prefixReviews + "v" + sep // + review id -> hubwire.Review (JSON)
	prefixReviewOpen  = prefixReviews + "o" + sep // + node + sep + draft id -> review id
)

func (m *reviewsModel) Prefixes() []string { return []string{prefixReviews} }

// Apply folds a successful draft event of a node into the queue.
func (m *reviewsModel) Apply(it *hubItem) {
	if it.dup || it.payload == nil || !it.ev.Type.IsDraft() {
		return
	}
	m.q.applyDraftEvent(it.node, it.origin, *it.ev, it.payload)
}

// Folds implements folder: every event of the drafts aggregate.
func (m *reviewsModel) Folds() []events.Type {
	return slices.DeleteFunc(events.Types(), func(t events.Type) bool { return !t.IsDraft() })
}

func (m *reviewsModel) Write(w *engine.RowWriter) {
	q := m.q
	q.mu.Lock()
	defer q.mu.Unlock()
	for k := range q.touchedDrafts {
		if d := q.drafts[k]; d != nil {
			w.JSON([]byte(prefixReviewDraft+k), d)
		} else {
			w.Del([]byte(prefixReviewDraft + k))
		}
	}
	for id := range q.touchedReviews {
		w.JSON([]byte(prefixReviewByID+id), q.byID[id])
	}
	for k := range q.touchedOpen {
		if id, ok := q.open[k]; ok {
			w.Set([]byte(prefixReviewOpen+k), []byte(id))
		} else {
			w.Del([]byte(prefixReviewOpen + k))
		}
	}
	clear(q.touchedDrafts)
	clear(q.touchedReviews)
	clear(q.touchedOpen)
}

// Load reads one row into what adopt hands to the queue once every row
// was read, so that readers never see a queue half loaded.
func (m *reviewsModel) Load(k string, v []byte) error {
	if m.loading == nil {
		m.loading = newReviewQueue()
	}
	q := m.loading
	switch {
	case strings.HasPrefix(k, prefixReviewDraft):
		var d catalog.Draft
		if err := json.Unmarshal(v, &d); err != nil {
			return err
		}
		q.drafts[k[len(prefixReviewDraft):]] = &d
	case strings.HasPrefix(k, prefixReviewByID):
		var r hubwire.Review
		if err := json.Unmarshal(v, &r); err != nil {
			return err
		}
		q.byID[k[len(prefixReviewByID):]] = &r
	case strings.HasPrefix(k, prefixReviewOpen):
		q.open[k[len(prefixReviewOpen):]] = string(v)
	default:
		return engine.ErrUnknownRow
	}
	return nil
}

// adopt makes what Load read the queue's rows (none if it read none).
func (m *reviewsModel) adopt() {
	loaded := m.loading
	if loaded == nil {
		loaded = newReviewQueue()
	}
	m.loading = nil
	q := m.q
	q.mu.Lock()
	defer q.mu.Unlock()
	q.drafts, q.byID, q.open = loaded.drafts, loaded.byID, loaded.open
	clear(q.touchedDrafts)
	clear(q.touchedReviews)
	clear(q.touchedOpen)
}

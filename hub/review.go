package hub

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/clumsies/clumsies/catalog"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/hub/hubwire"
)

// outcomeStatus returns the status a review outcome of the hub's ledger
// leaves: that of the review event the workspace records it as. ok is
// false for any other type.
func outcomeStatus(typ events.Type) (catalog.DraftStatus, bool) {
	rec, ok := events.HubOutcome(typ)
	if !ok {
		return "", false
	}
	return catalog.StatusAfter(rec)
}

// reviewQueue is the hub's read model of reviews: the fold of every
// node's draft events (from the aggregate, a read model of the projection
// engine kept in rows: reviewsModel) and of the hub's outcomes (from its
// ledger, the read model reviewOutcomes of the ledger's read side). A
// review's outcome is laid over it when it is read, so that the rows
// depend on the aggregate only, whatever the order the two streams are
// read in.
type reviewQueue struct {
	mu     sync.Mutex
	drafts map[string]*catalog.Draft // node + "\x00" + draft id -> the draft as its events leave it
	byID   map[string]*hubwire.Review
	open   map[string]string // node + "\x00" + draft id -> the id of its review in progress
	// outcomes holds the hub's outcomes by review id (one may be read
	// before its review).
	outcomes *reviewOutcomes
	// touched* hold the keys of the rows changed since the model last
	// wrote them.
	touchedDrafts, touchedReviews, touchedOpen map[string]bool
	changed                                    chan struct{}
	// touched, when set, learns the team of every review that changes;
	// it is called with mu held and must not call back into the queue.
	touched func(teams ...string)
}

func newReviewQueue() *reviewQueue {
	q := &reviewQueue{drafts: map[string]*catalog.Draft{}, byID: map[string]*hubwire.Review{}, open: map[string]string{},
		outcomes: newReviewOutcomes(), changed: make(chan struct{}),
		touchedDrafts: map[string]bool{}, touchedReviews: map[string]bool{}, touchedOpen: map[string]bool{}}
	q.outcomes.recorded = q.outcomeRecorded
	return q
}

func (q *reviewQueue) notify(team string) {
	close(q.changed)
	q.changed = make(chan struct{})
	if q.touched != nil {
		q.touched(team)
	}
}

// applyDraftEvent folds one successful draft event of node n (ev, at
// sequence seq of its ledger, with its decoded payload) into the queue.
func (q *reviewQueue) applyDraftEvent(n hubwire.Node, seq uint64, ev events.Event, payload any) {
	key := n.ID + "\x00" + catalog.DraftKey(payload)
	q.mu.Lock()
	defer q.mu.Unlock()
	cur := q.drafts[key]
	ev.Seq = seq
	next := catalog.EvolveDraft(cur, &ev, payload)
	if next == nil || next.Status.Final() {
		delete(q.drafts, key)
	} else {
		q.drafts[key] = next
	}
	q.touchedDrafts[key] = true
	rd, isReview := payload.(*events.ReviewData)
	switch {
	case ev.Type == events.TypeDraftSubmit && cur != nil && next != nil && next.Status == catalog.StatusInReview && isReview:
		if _, seen := q.byID[ev.ID]; seen {
			return
		}
		q.byID[ev.ID] = &hubwire.Review{ID: ev.ID, Team: n.Team, WorkspaceID: n.Workspace, Node: n.ID, Member: n.Member,
			DraftID: cur.ID, Resource: cur.Resource, Op: cur.Op, Path: cur.Path, NewPath: cur.NewPath, Body: cur.Body,
			Description: cur.Description, SessionID: cur.SessionID, BaseRevision: rd.BaseRevision, SubmitSeq: seq,
			Submitted: ev.Time, Status: catalog.StatusInReview}
		q.open[key] = ev.ID
		q.touchedReviews[ev.ID], q.touchedOpen[key] = true, true
		q.notify(n.Team)
	case next != nil && next.Status.Final():
		// The node recorded the outcome: its review is over.
		if id, ok := q.open[key]; ok {
			if r := q.byID[id]; r != nil && r.Status == catalog.StatusInReview {
				r.Status = next.Status
				q.touchedReviews[id] = true
			}
			delete(q.open, key)
			q.touchedOpen[key] = true
			q.notify(n.Team)
		}
	}
}

// outcomeRecorded wakes who waits on the queue, once the outcome of
// review id is recorded.
func (q *reviewQueue) outcomeRecorded(id string) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if r := q.byID[id]; r != nil {
		q.notify(r.Team)
	}
}

// review returns a copy of review r with the hub's outcome laid over it;
// the caller holds mu.
func (q *reviewQueue) review(r *hubwire.Review) hubwire.Review {
	c := *r
	if o, ok := q.outcomes.get(r.ID); ok {
		setOutcome(&c, o.typ, o.data)
	}
	return c
}

// setOutcome lays the hub outcome o (of type typ) over review r.
func setOutcome(r *hubwire.Review, typ events.Type, o events.ReviewOutcomeData) {
	status, _ := outcomeStatus(typ)
	r.Status, r.Reviewer, r.Reason, r.Revision, r.CurrentRevision = status, o.Reviewer, o.Reason, o.Revision, o.CurrentRevision
}

// get returns a copy of review id.
func (q *reviewQueue) get(id string) (hubwire.Review, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	r, ok := q.byID[id]
	if !ok {
		return hubwire.Review{}, false
	}
	return q.review(r), true
}

// list returns the reviews of teams (nil: every team), those in review
// only unless all is set, oldest first.
func (q *reviewQueue) list(teams []string, all bool) []hubwire.Review {
	q.mu.Lock()
	out := []hubwire.Review{}
	for _, r := range q.byID {
		if c := q.review(r); (teams == nil || slices.Contains(teams, c.Team)) && (all || c.Status == catalog.StatusInReview) {
			c.Body = ""
			out = append(out, c)
		}
	}
	q.mu.Unlock()
	slices.SortFunc(out, func(a, b hubwire.Review) int { return strings.Compare(a.ID, b.ID) })
	return out
}

// waitFor waits until ok holds for the queue or ctx ends.
func (q *reviewQueue) waitFor(ctx context.Context, ok func() bool) error {
	for {
		q.mu.Lock()
		ch := q.changed
		q.mu.Unlock()
		if ok() {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-ch:
		}
	}
}

// Errors of a review decision.
var (
	// ErrDecided means the review is no longer in review.
	ErrDecided = errors.New("hub: the draft is no longer in review")
)

// Reviews lists the reviews of teams (nil: every team); all includes the
// decided ones.
func (h *Hub) Reviews(teams []string, all bool) []hubwire.Review { return h.reviews.list(teams, all) }

// ReviewOf returns review id with the draft's body.
func (h *Hub) ReviewOf(id string) (hubwire.Review, error) {
	r, ok := h.reviews.get(id)
	if !ok {
		return hubwire.Review{}, fmt.Errorf("%w: no review %q (clumsies hub review list)", ErrNotFound, id)
	}
	return r, nil
}

package hub

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

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
// node's draft events (from the aggregate) and of the hub's outcomes (from
// its ledger). It is kept in memory and rebuilt by replaying both when
// the hub starts.
type reviewQueue struct {
	mu     sync.Mutex
	drafts map[string]*catalog.Draft // node + "\x00" + draft id -> the draft as its events leave it
	byID   map[string]*hubwire.Review
	open   map[string]string // node + "\x00" + draft id -> the id of its review in progress
	// early holds outcomes read before their review (the two streams are
	// replayed side by side), by review id.
	early   map[string]earlyOutcome
	changed chan struct{}
	// touched, when set, learns the team of every review that changes;
	// it is called with mu held and must not call back into the queue.
	touched func(teams ...string)
}

type earlyOutcome struct {
	typ events.Type
	o   events.ReviewOutcomeData
}

func newReviewQueue() *reviewQueue {
	return &reviewQueue{drafts: map[string]*catalog.Draft{}, byID: map[string]*hubwire.Review{}, open: map[string]string{},
		early: map[string]earlyOutcome{}, changed: make(chan struct{})}
}

func (q *reviewQueue) notify(team string) {
	close(q.changed)
	q.changed = make(chan struct{})
	if q.touched != nil {
		q.touched(team)
	}
}

// applyDraftEvent folds one draft event of node n (at sequence seq of its
// ledger) into the queue.
func (q *reviewQueue) applyDraftEvent(n hubwire.Node, seq uint64, ev *events.Event) error {
	payload, err := ev.Payload()
	if err != nil {
		return err
	}
	key := n.ID + "\x00" + catalog.DraftKey(payload)
	q.mu.Lock()
	defer q.mu.Unlock()
	cur := q.drafts[key]
	ev.Seq = seq
	next := catalog.EvolveDraft(cur, ev, payload)
	if next != nil && next.Status.Final() {
		delete(q.drafts, key)
	} else {
		q.drafts[key] = next
	}
	rd, isReview := payload.(*events.ReviewData)
	switch {
	case ev.Type == events.TypeDraftSubmit && cur != nil && next != nil && next.Status == catalog.StatusInReview && isReview:
		if _, seen := q.byID[ev.ID]; seen {
			return nil
		}
		q.byID[ev.ID] = &hubwire.Review{ID: ev.ID, Team: n.Team, WorkspaceID: n.Workspace, Node: n.ID, Member: n.Member,
			DraftID: cur.ID, Resource: cur.Resource, Op: cur.Op, Path: cur.Path, NewPath: cur.NewPath, Body: cur.Body,
			Description: cur.Description, SessionID: cur.SessionID, BaseRevision: rd.BaseRevision, SubmitSeq: seq,
			Submitted: ev.Time, Status: catalog.StatusInReview}
		q.open[key] = ev.ID
		if e, ok := q.early[ev.ID]; ok {
			delete(q.early, ev.ID)
			setOutcome(q.byID[ev.ID], e.typ, e.o)
		}
		q.notify(n.Team)
	case next != nil && next.Status.Final():
		// The node recorded the outcome: its review is over.
		if id, ok := q.open[key]; ok {
			if r := q.byID[id]; r != nil && r.Status == catalog.StatusInReview {
				r.Status = next.Status
			}
			delete(q.open, key)
			q.notify(n.Team)
		}
	}
	return nil
}

// applyOutcome folds one of the hub's outcome events into the queue.
func (q *reviewQueue) applyOutcome(typ events.Type, o events.ReviewOutcomeData) {
	if _, ok := outcomeStatus(typ); !ok {
		return
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	r := q.byID[o.ReviewID]
	if r == nil {
		q.early[o.ReviewID] = earlyOutcome{typ, o}
		return
	}
	setOutcome(r, typ, o)
	q.notify(r.Team)
}

// setOutcome lays the hub outcome o (of type typ) over review r; a
// review of the queue is changed under q.mu.
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
	return *r, true
}

// list returns the reviews of teams (nil: every team), those in review
// only unless all is set, oldest first.
func (q *reviewQueue) list(teams []string, all bool) []hubwire.Review {
	q.mu.Lock()
	out := []hubwire.Review{}
	for _, r := range q.byID {
		if (teams == nil || slices.Contains(teams, r.Team)) && (all || r.Status == catalog.StatusInReview) {
			c := *r
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

// followReviews keeps the review queue: it replays the aggregate's draft
// events and the hub ledger's review outcomes, then follows both, until
// ctx ends. ready is called once both replays have caught up with what
// the streams held.
func (h *Hub) followReviews(ctx context.Context, ready func()) {
	var wg, caught sync.WaitGroup
	wg.Add(2)
	caught.Add(2)
	go func() {
		defer wg.Done()
		h.followStream(ctx, hubwire.AggregateStream, hubwire.SubjectPrefix+".*.*.*.attest.draft.>", h.applyDraftMsg, caught.Done)
	}()
	go func() {
		defer wg.Done()
		h.followLog(ctx, "the review queue", h.applyOutcomeEvent, caught.Done)
	}()
	go func() {
		caught.Wait()
		ready()
	}()
	wg.Wait()
}

// followStream feeds every message of stream under filter to apply, in
// order, from the first; it starts again after the last one applied when
// following fails. caughtUp is called once, when what the stream held
// when it was first read has been applied.
func (h *Hub) followStream(ctx context.Context, stream, filter string, apply func(jetstream.Msg, uint64), caughtUp func()) {
	var last uint64
	var once sync.Once
	defer once.Do(caughtUp)
	for ctx.Err() == nil {
		err := func() error {
			st, err := h.js.Stream(ctx, stream)
			if err != nil {
				return err
			}
			cons, err := st.OrderedConsumer(ctx, jetstream.OrderedConsumerConfig{FilterSubjects: []string{filter},
				DeliverPolicy: jetstream.DeliverByStartSequencePolicy, OptStartSeq: last + 1})
			if err != nil {
				return err
			}
			if info := cons.CachedInfo(); info != nil && info.NumPending == 0 {
				once.Do(caughtUp)
			}
			it, err := cons.Messages()
			if err != nil {
				return err
			}
			defer it.Stop()
			stop := context.AfterFunc(ctx, it.Stop)
			defer stop()
			for {
				msg, err := it.Next()
				if err != nil {
					return err
				}
				md, err := msg.Metadata()
				if err != nil {
					return err
				}
				last = md.Sequence.Stream
				apply(msg, last)
				if md.NumPending == 0 {
					once.Do(caughtUp)
				}
			}
		}()
		if ctx.Err() != nil {
			return
		}
		h.logger.Warn("review queue: following a stream failed; retrying", "stream", stream, "err", err)
		select {
		case <-ctx.Done():
		case <-time.After(time.Second):
		}
	}
}

// applyDraftMsg checks a draft event of the aggregate as the projector
// checks every message, and folds it into the queue.
func (h *Hub) applyDraftMsg(msg jetstream.Msg, _ uint64) {
	team, ws, nodeID, typ, ok := splitSubject(msg.Subject())
	if !ok {
		return
	}
	n, known := h.reg.node(nodeID)
	if !known || n.Team != team || n.Workspace != ws {
		return
	}
	origin, err := checkSource(msg.Headers().Get(streamSourceHeader), n, typ)
	if err != nil {
		return
	}
	ev, err := events.Decode(msg.Data())
	if err != nil || ev.WorkspaceID != ws || string(ev.Type) != typ {
		return
	}
	if err := h.reviews.applyDraftEvent(n, origin, &ev); err != nil {
		h.logger.Warn("review queue: skipped a draft event", "id", ev.ID, "err", err)
	}
}

// applyOutcomeEvent folds an event of the hub's ledger into the queue
// when it is a review outcome.
func (h *Hub) applyOutcomeEvent(ev events.Event) error {
	if _, ok := outcomeStatus(ev.Type); !ok {
		return nil
	}
	var o events.ReviewOutcomeData
	if err := json.Unmarshal(ev.Data, &o); err != nil {
		return nil
	}
	h.reviews.applyOutcome(ev.Type, o)
	return nil
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

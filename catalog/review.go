package catalog

import "github.com/clumsies/clumsies/events"

// DraftStatus is where a draft is in its review.
//
//	status     | set by                         | open | the agent
//	-----------+--------------------------------+------+----------------------------------
//	draft      | artifact (create, update, ...) | yes  | changes or discards it
//	in_review  | attest.draft.submit            | yes  | waits: no change, no discard
//	applied    | attest.draft.apply             | no   | sees the published object change
//	declined   | attest.draft.decline           | no   | sees the reason, may stage again
//	conflicted | attest.draft.conflict          | no   | sees the reason, may stage again
//
// What a review outcome does to the open draft of an id (DecideReview):
//
//	status    | submit       | apply     | decline   | conflict
//	----------+--------------+-----------+-----------+-----------
//	none      | not_found    | not_found | not_found | not_found
//	draft     | in_review    | applied   | declined  | conflicted
//	in_review | incompatible | applied   | declined  | conflicted
//
// A repository draft is applied from draft (clumsies drafts apply); a team
// draft is submitted, then accepted (applied) or declined at the hub.
// decline and conflict need a reason. A final draft keeps its history (the
// read models keep it) but is no longer the id's open draft.
type DraftStatus string

// The statuses of a draft.
const (
	StatusDraft      DraftStatus = "draft"
	StatusInReview   DraftStatus = "in_review"
	StatusApplied    DraftStatus = "applied"
	StatusDeclined   DraftStatus = "declined"
	StatusConflicted DraftStatus = "conflicted"
)

// Final reports whether a draft with status s is closed: applied, declined
// or conflicted.
func (s DraftStatus) Final() bool {
	return s == StatusApplied || s == StatusDeclined || s == StatusConflicted
}

// statusAfter is the status each review event leaves.
var statusAfter = map[events.Type]DraftStatus{
	events.TypeDraftSubmit:   StatusInReview,
	events.TypeDraftApply:    StatusApplied,
	events.TypeDraftDecline:  StatusDeclined,
	events.TypeDraftConflict: StatusConflicted,
}

// StatusAfter returns the status review event type t leaves a draft in;
// ok is false for a type that is not a review event.
func StatusAfter(t events.Type) (s DraftStatus, ok bool) {
	s, ok = statusAfter[t]
	return s, ok
}

// ReviewCommand is one review outcome to decide for the open draft
// Data.DraftID.
type ReviewCommand struct {
	// Type is TypeDraftSubmit, TypeDraftApply, TypeDraftDecline or
	// TypeDraftConflict.
	Type events.Type
	// Data is recorded as given (Reason is required for decline and
	// conflict).
	Data events.ReviewData
	// Seq, when not 0, is the Seq of the draft the person reviewed: the
	// command is refused if the draft changed since.
	Seq uint64
}

// ReviewDecision is what an accepted review command records, and the draft
// as the event leaves it.
type ReviewDecision struct {
	Type  events.Type
	Data  events.ReviewData
	Draft Draft
}

// DecideReview decides review command c on facts f (f.Draft is the open
// draft of c.Data.DraftID): the event to record, or a *DraftError. The
// caller appends the event on the condition that the drafts aggregate is
// still at f.Seq, as for DecideDraft.
func DecideReview(f DraftFacts, c ReviewCommand) (ReviewDecision, error) {
	status, ok := statusAfter[c.Type]
	if !ok {
		return ReviewDecision{}, refuse(events.CodeInvalidParams, "%s is not a review outcome", c.Type)
	}
	id := c.Data.DraftID
	d := f.Draft
	switch {
	case d == nil || d.ID != id || d.Status.Final():
		return ReviewDecision{}, refuse(events.CodeNotFound, "%q has no open draft; list the open drafts with clumsies drafts list", id)
	case c.Seq != 0 && d.Seq != c.Seq:
		return ReviewDecision{}, refuse(events.CodeIncompatibleDraft,
			"the draft of %q changed since it was reviewed (event %d, now %d); look at it again with clumsies drafts show %s", id, c.Seq, d.Seq, id)
	case c.Type == events.TypeDraftSubmit && d.Status == StatusInReview:
		return ReviewDecision{}, refuse(events.CodeIncompatibleDraft, "the draft of %q is already in review", id)
	case (status == StatusDeclined || status == StatusConflicted) && c.Data.Reason == "":
		e := refuse(events.CodeInvalidParams, "a %s draft needs a reason; give one with --reason", status)
		e.Field = "reason"
		return ReviewDecision{}, e
	}
	ev := &events.Event{Type: c.Type, Outcome: events.OutcomeOK, SessionID: d.SessionID, Seq: d.Seq}
	return ReviewDecision{Type: c.Type, Data: c.Data, Draft: *evolveReview(d, ev, &c.Data)}, nil
}

// evolveReview folds a review event into the open draft cur.
func evolveReview(cur *Draft, ev *events.Event, r *events.ReviewData) *Draft {
	status, ok := statusAfter[ev.Type]
	if !ok || cur == nil || cur.Status.Final() {
		return cur
	}
	next := *cur
	next.Status, next.Seq = status, ev.Seq
	if status.Final() {
		next.Reviewer, next.Reason, next.Revision, next.Diff = r.Reviewer, r.Reason, r.Revision, r.Diff
	}
	return &next
}

package hub

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/hub/hubwire"
	"github.com/clumsies/clumsies/textdiff"
)

// ReviewDiff returns review rv's draft as a unified diff against the
// team object's body at the draft's base revision, or against its current
// body when the catalog no longer keeps that revision.
func (h *Hub) ReviewDiff(ctx context.Context, rv hubwire.Review) (hubwire.ReviewDiff, error) {
	out := hubwire.ReviewDiff{ID: rv.ID, BaseRevision: rv.BaseRevision}
	var base string
	if rv.Op != events.DraftOpCreate {
		var err error
		if base, out.BaseFound, err = h.baseBody(ctx, rv); err != nil {
			return out, fmt.Errorf("read the base of review %s: %w", rv.ID, err)
		}
	} else {
		out.BaseFound = true
	}
	a, b := "a/"+rv.Path, "b/"+rv.Path
	switch rv.Op {
	case events.DraftOpCreate:
		a = ""
	case events.DraftOpDelete:
		b = ""
	case events.DraftOpRename:
		b = "b/" + rv.NewPath
	}
	body := rv.Body
	if rv.Op == events.DraftOpDelete {
		body = ""
	} else if rv.Op == events.DraftOpRename && body == "" {
		body = base
	}
	out.Diff = textdiff.Unified(a, b, base, body)
	if content.HasReferFooter(body) {
		out.Warning = referFooterWarning
	}
	return out, nil
}

// referFooterWarning says what is wrong with a draft whose body ends with
// memload's refer-reminder footer (an agent that edited the rule from
// memload's answer sent it back).
const referFooterWarning = "the body ends with clumsies' refer-reminder footer (the lines memload appends after ---, with a ruleId and a ruleHash): " +
	"they are not the file's, and every node would serve them with a stale hash"

// baseBody reads the body of rv's team object at its base revision, or,
// when the catalog keeps it no longer, the current body (found false).
func (h *Hub) baseBody(ctx context.Context, rv hubwire.Review) (body string, found bool, err error) {
	kv, err := h.catalogKV(ctx, rv.Team, false)
	if err != nil {
		return "", false, err
	}
	var e jetstream.KeyValueEntry
	err = retryUnanswered(ctx, func(ctx context.Context) error {
		var err error
		e, err = kv.GetRevision(ctx, rv.DraftID, rv.BaseRevision)
		return err
	})
	if err == nil && e.Operation() == jetstream.KeyValuePut {
		o, err := hubwire.DecodeCatalogEntry(e.Value(), e.Revision())
		return o.Body, err == nil, err
	}
	if err != nil && !errors.Is(err, jetstream.ErrKeyNotFound) {
		return "", false, err
	}
	cur, err := h.TeamObject(ctx, rv.Team, rv.DraftID)
	if errors.Is(err, ErrNotFound) {
		return "", false, nil
	}
	return cur.Body, false, err
}

// reviewDiff serves GET /api/reviews/{id}/diff.
func (a *api) reviewDiff(w http.ResponseWriter, r *http.Request) {
	rv, _, ok := a.reviewFor(w, r, false)
	if !ok {
		return
	}
	out, err := a.h.ReviewDiff(r.Context(), rv)
	if err != nil {
		a.fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// me serves GET /api/me: who the token is and whether it may review.
func (a *api) me(w http.ResponseWriter, r *http.Request) {
	name, teams, reviewer, ok := a.who(w, r)
	if !ok {
		return
	}
	writeJSON(w, http.StatusOK, hubwire.Me{Name: name, Teams: teams, Reviewer: reviewer})
}

package hub

import (
	"net/http"
	"slices"
	"strconv"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// who returns who the request's token is and the teams it may read (nil:
// every team, the admin), or answers 401.
func (a *api) who(w http.ResponseWriter, r *http.Request) (name string, teams []string, reviewer, ok bool) {
	if a.isAdmin(r) {
		return "admin", nil, true, true
	}
	t, found := a.h.reg.tokenOf(bearer(r))
	if !found {
		writeError(w, hubwire.CodeUnauthorized, "this needs an admin or member token (Authorization: Bearer ...)")
		return "", nil, false, false
	}
	return t.Name, t.Teams, t.Reviewer, true
}

// reviews serves GET /api/reviews, in pages.
func (a *api) reviews(w http.ResponseWriter, r *http.Request) {
	_, teams, _, ok := a.who(w, r)
	if !ok {
		return
	}
	cursor, limit, ok := a.listPage(w, r, "team", "all")
	if !ok {
		return
	}
	v := r.URL.Query()
	if team := v.Get("team"); team != "" {
		if teams != nil && !slices.Contains(teams, team) {
			writeError(w, hubwire.CodeForbidden, "this token may not read team "+strconv.Quote(team))
			return
		}
		teams = []string{team}
	}
	all, _ := strconv.ParseBool(v.Get("all"))
	p, err := page(a.h.Reviews(teams, all), hubwire.Review.Key, cursor, limit)
	if err != nil {
		a.fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, p)
}

// reviewFor returns review id if the token may read it (and, with
// decide, decide it), or answers the error.
func (a *api) reviewFor(w http.ResponseWriter, r *http.Request, decide bool) (hubwire.Review, string, bool) {
	name, teams, reviewer, ok := a.who(w, r)
	if !ok {
		return hubwire.Review{}, "", false
	}
	rv, err := a.h.ReviewOf(r.PathValue("id"))
	if err != nil {
		a.fail(w, err)
		return hubwire.Review{}, "", false
	}
	if teams != nil && !slices.Contains(teams, rv.Team) {
		writeError(w, hubwire.CodeForbidden, "this token may not read team "+strconv.Quote(rv.Team))
		return hubwire.Review{}, "", false
	}
	if decide && !reviewer {
		writeError(w, hubwire.CodeForbidden, "this token may not review; ask the hub's admin for a reviewer token (clumsies hub token --reviewer)")
		return hubwire.Review{}, "", false
	}
	return rv, name, true
}

// review serves GET /api/reviews/{id}.
func (a *api) review(w http.ResponseWriter, r *http.Request) {
	if rv, _, ok := a.reviewFor(w, r, false); ok {
		writeJSON(w, http.StatusOK, rv)
	}
}

// accept serves POST /api/reviews/{id}/accept.
func (a *api) accept(w http.ResponseWriter, r *http.Request) {
	rv, name, ok := a.reviewFor(w, r, true)
	if !ok {
		return
	}
	out, err := a.h.Accept(r.Context(), rv.ID, name)
	if err != nil {
		a.fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// decline serves POST /api/reviews/{id}/decline.
func (a *api) decline(w http.ResponseWriter, r *http.Request) {
	rv, name, ok := a.reviewFor(w, r, true)
	if !ok {
		return
	}
	var req hubwire.DeclineRequest
	if !readJSON(w, r, &req) {
		return
	}
	out, err := a.h.Decline(r.Context(), rv.ID, name, req.Reason)
	if err != nil {
		a.fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

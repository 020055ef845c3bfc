package hub

import (
	"net/http"
	"slices"
	"strconv"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// maxPushBody bounds the body of a catalog push: a content tree of many
// files of up to 1 MiB each.
const maxPushBody = 64 << 20

// canReadTeam reports whether the request's token may read team's catalog:
// the admin token, or a member token of the team.
func (a *api) canReadTeam(w http.ResponseWriter, r *http.Request, team string) bool {
	if a.isAdmin(r) {
		return true
	}
	teams, ok := a.h.reg.tokenTeams(bearer(r))
	if !ok {
		writeError(w, hubwire.CodeUnauthorized, "this needs an admin or member token (Authorization: Bearer ...)")
		return false
	}
	if !slices.Contains(teams, team) {
		writeError(w, hubwire.CodeForbidden, "this token may not read team "+strconv.Quote(team))
		return false
	}
	return true
}

// pushCatalog serves POST /api/teams/{team}/catalog.
func (a *api) pushCatalog(w http.ResponseWriter, r *http.Request) {
	var req hubwire.PushRequest
	if !readJSONUpTo(w, r, &req, maxPushBody) {
		return
	}
	res, err := a.h.PushCatalog(r.Context(), r.PathValue("team"), req.Files)
	if err != nil {
		a.fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, res)
}

// manifest serves GET /api/teams/{team}/manifest: the catalog without
// bodies; its ETag is the catalog's revision, and a request whose
// If-None-Match names it gets 304 Not Modified.
func (a *api) manifest(w http.ResponseWriter, r *http.Request) {
	team := r.PathValue("team")
	if !a.canReadTeam(w, r, team) {
		return
	}
	m, err := a.h.TeamManifest(r.Context(), team)
	if err != nil {
		a.fail(w, err)
		return
	}
	etag := strconv.Quote(strconv.FormatUint(m.Revision, 10))
	w.Header().Set("ETag", etag)
	if inm := r.Header.Get("If-None-Match"); inm != "" && (inm == etag || inm == "*") {
		w.Header().Set("Cache-Control", "no-cache")
		w.WriteHeader(http.StatusNotModified)
		return
	}
	writeJSON(w, http.StatusOK, m)
}

// teamObject serves GET /api/teams/{team}/objects/{id}: one object with
// its body.
func (a *api) teamObject(w http.ResponseWriter, r *http.Request) {
	team := r.PathValue("team")
	if !a.canReadTeam(w, r, team) {
		return
	}
	o, err := a.h.TeamObject(r.Context(), team, r.PathValue("id"))
	if err != nil {
		a.fail(w, err)
		return
	}
	w.Header().Set("ETag", strconv.Quote(strconv.FormatUint(o.Revision, 10)))
	writeJSON(w, http.StatusOK, o)
}

// teamHistory serves GET /api/teams/{team}/objects/{id}/history.
func (a *api) teamHistory(w http.ResponseWriter, r *http.Request) {
	team := r.PathValue("team")
	if !a.canReadTeam(w, r, team) {
		return
	}
	hs, err := a.h.TeamHistory(r.Context(), team, r.PathValue("id"))
	if err != nil {
		a.fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, hs)
}

package hub

import (
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// maxBody bounds a request body of the API.
const maxBody = 64 << 10

// Handler serves the hub's HTTP API:
//
//	POST /api/invites          admin   {workspaceId, team, member?} -> {token}
//	POST /api/join             invite  JoinRequest -> Node
//	GET  /api/nodes            admin: limit, cursor -> Page of NodeInfo
//	POST /api/nodes/{id}/revoke admin  -> Node
//	GET  /api/nodes/{id}/status admin or the node itself (NodeAuthScheme) -> NodeStatus
//	GET  /api/nodes/{id}/chain  admin or the node itself: at? -> NodeChain
//	POST /api/tokens           admin   {name, teams} -> {token}
//	GET  /api/stats            admin or member: period, days or since/until, workspace, rule, team, member -> Stats (bounded: StatsSummary)
//	GET  /api/stats/rules      the same, and limit, cursor, used -> Page of RuleStats
//	GET  /api/stats/members    the same, and limit, cursor -> Page of MemberStats
//	GET  /api/stats/evidence/rules  the same, and limit, cursor -> Page of RuleEvidence
//	GET  /api/stats/sessions   the same, and limit, cursor -> Page of SessionEvidence
//	GET  /api/stats/checks     the same, and limit, cursor -> Page of RuleChecks
//	GET  /api/team/nodes       admin or member: limit, cursor -> TeamNodePage of the token's teams
//	GET  /api/health           anyone  -> Health
//	POST /api/teams/{team}/catalog       admin   PushRequest -> PushResult
//	GET  /api/teams/{team}/manifest      admin or member of team -> Manifest (ETag: the revision; If-None-Match -> 304)
//	GET  /api/teams/{team}/objects/{id}  admin or member of team -> CatalogObject
//	GET  /api/teams/{team}/objects/{id}/history  admin or member of team -> [CatalogObject]
//	GET  /api/reviews          admin or member: team?, all?, limit, cursor -> Page of Review (without bodies)
//	GET  /api/reviews/{id}     admin or member of its team -> Review
//	POST /api/reviews/{id}/accept   admin or reviewer of its team -> Review
//	POST /api/reviews/{id}/decline  admin or reviewer of its team: {reason} -> Review
//
// Tokens travel as "Authorization: Bearer <token>", or, from the
// dashboard in a browser, as the cookie clumsies_token. A member token
// reads the stats and nodes of its teams only.
func Handler(h *Hub, adminToken string) http.Handler {
	a := &api{h: h, admin: []byte(adminToken)}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /api/invites", a.adminOnly(a.invite))
	mux.HandleFunc("POST /api/join", a.join)
	mux.HandleFunc("GET /api/nodes", a.adminOnly(a.nodes))
	mux.HandleFunc("POST /api/nodes/{id}/revoke", a.adminOnly(a.revoke))
	mux.HandleFunc("GET /api/nodes/{id}/status", a.nodeStatus)
	mux.HandleFunc("GET /api/nodes/{id}/chain", a.nodeChain)
	mux.HandleFunc("POST /api/tokens", a.adminOnly(a.token))
	mux.HandleFunc("GET /api/stats", a.stats)
	mux.HandleFunc("GET /api/stats/rules", a.statsRules)
	mux.HandleFunc("GET /api/stats/members", a.statsMembers)
	mux.HandleFunc("GET /api/stats/evidence/rules", a.statsEvidenceRules)
	mux.HandleFunc("GET /api/stats/sessions", a.statsSessions)
	mux.HandleFunc("GET /api/stats/checks", a.statsChecks)
	mux.HandleFunc("POST /api/teams/{team}/catalog", a.adminOnly(a.pushCatalog))
	mux.HandleFunc("GET /api/teams/{team}/manifest", a.manifest)
	mux.HandleFunc("GET /api/teams/{team}/objects/{id}", a.teamObject)
	mux.HandleFunc("GET /api/teams/{team}/objects/{id}/history", a.teamHistory)
	mux.HandleFunc("GET /api/reviews", a.reviews)
	mux.HandleFunc("GET /api/reviews/{id}", a.review)
	mux.HandleFunc("POST /api/reviews/{id}/accept", a.accept)
	mux.HandleFunc("POST /api/reviews/{id}/decline", a.decline)
	mux.HandleFunc("GET /api/reviews/{id}/diff", a.reviewDiff)
	mux.HandleFunc("GET /api/me", a.me)
	mux.HandleFunc("GET /api/team/nodes", a.teamNodes)
	mux.HandleFunc("GET /api/team/events", a.teamEvents)
	mux.HandleFunc("GET /api/health", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, h.Health(r.Context()))
	})
	return mux
}

type api struct {
	h     *Hub
	admin []byte
}

// bearer returns the request's token: the Authorization header's, or
// without one the dashboard's cookie (a browser cannot send the header on
// a page load). The cookie is SameSite=Strict; a GET accepts it, any other
// method only with the header DashboardHeader, which a page of another
// site cannot send without the hub's consent (CORS), so that no other
// site can make a reviewer's browser accept or decline a draft.
func bearer(r *http.Request) string {
	t, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if t = strings.TrimSpace(t); t == "" && (r.Method == http.MethodGet || r.Header.Get(hubwire.DashboardHeader) == "1") {
		if c, err := r.Cookie(hubwire.TokenCookie); err == nil {
			t = c.Value
		}
	}
	return t
}

func (a *api) isAdmin(r *http.Request) bool {
	t := bearer(r)
	return t != "" && subtle.ConstantTimeCompare([]byte(t), a.admin) == 1
}

func (a *api) adminOnly(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !a.isAdmin(r) {
			writeError(w, hubwire.CodeUnauthorized, "this needs the hub's admin token (Authorization: Bearer ...)")
			return
		}
		next(w, r)
	}
}

func (a *api) invite(w http.ResponseWriter, r *http.Request) {
	var req hubwire.InviteRequest
	if !readJSON(w, r, &req) {
		return
	}
	token, err := a.h.Invite(r.Context(), req.WorkspaceID, req.Team, req.Member)
	if err != nil {
		a.fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, hubwire.TokenAnswer{Token: token})
}

func (a *api) join(w http.ResponseWriter, r *http.Request) {
	var req hubwire.JoinRequest
	if !readJSON(w, r, &req) {
		return
	}
	n, err := a.h.Join(r.Context(), req.Secret, req.NodeID, req.PublicKey, req.WorkspaceID, req.WorkspaceName)
	if err != nil {
		a.fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, n)
}

func (a *api) nodes(w http.ResponseWriter, r *http.Request) {
	cursor, limit, ok := a.listPage(w, r)
	if !ok {
		return
	}
	all := []hubwire.NodeInfo{}
	for _, n := range a.h.Nodes() {
		all = append(all, hubwire.NodeInfo{Node: n, Link: a.h.Link(n.ID)})
	}
	slices.SortFunc(all, func(a, b hubwire.NodeInfo) int { return strings.Compare(a.ID, b.ID) })
	p, err := page(all, hubwire.NodeInfo.Key, cursor, limit)
	if err != nil {
		a.fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, p)
}

func (a *api) revoke(w http.ResponseWriter, r *http.Request) {
	n, err := a.h.Revoke(r.Context(), r.PathValue("id"))
	if err != nil {
		a.fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, n)
}

func (a *api) nodeStatus(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if !a.isAdmin(r) && !a.h.verifyNode(id, r.Header.Get("Authorization"), time.Now()) {
		writeError(w, hubwire.CodeUnauthorized, "this needs the admin token or the node's own signature; a revoked node is refused")
		return
	}
	st, err := a.h.NodeStatus(id)
	if err != nil {
		a.fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, st)
}

func (a *api) nodeChain(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if !a.isAdmin(r) && !a.h.verifyNode(id, r.Header.Get("Authorization"), time.Now()) {
		writeError(w, hubwire.CodeUnauthorized, "this needs the admin token or the node's own signature; a revoked node is refused")
		return
	}
	v := r.URL.Query()
	for k := range v {
		if k != "at" {
			a.fail(w, fmt.Errorf("%w: unknown parameter %q (at)", ErrInvalid, k))
			return
		}
	}
	var at uint64
	if s := v.Get("at"); s != "" {
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil || n == 0 {
			a.fail(w, fmt.Errorf("%w: at %q is not a sequence (1 or more)", ErrInvalid, s))
			return
		}
		at = n
	}
	c, err := a.h.NodeChain(id, at)
	if err != nil {
		a.fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, c)
}

func (a *api) token(w http.ResponseWriter, r *http.Request) {
	var req hubwire.TokenRequest
	if !readJSON(w, r, &req) {
		return
	}
	if !validName(req.Name) || len(req.Teams) == 0 || slices.ContainsFunc(req.Teams, func(t string) bool { return !validName(t) }) {
		a.fail(w, fmt.Errorf("%w: a member token needs a name and at least one team (letters, digits, '-' and '_')", ErrInvalid))
		return
	}
	token, err := a.h.reg.addToken(r.Context(), req.Name, req.Teams, req.Reviewer)
	if err != nil {
		a.fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, hubwire.TokenAnswer{Token: token})
}

// readerTeams returns the teams the request's token may read: nil (every
// team) for the admin token. ok is false, and the answer written, for a
// request without an admin or member token.
func (a *api) readerTeams(w http.ResponseWriter, r *http.Request) (teams []string, ok bool) {
	if a.isAdmin(r) {
		return nil, true
	}
	t, ok := a.h.reg.tokenTeams(bearer(r))
	if !ok {
		writeError(w, hubwire.CodeUnauthorized, "this needs an admin or member token (Authorization: Bearer ...)")
		return nil, false
	}
	return t, true
}

func (a *api) teamNodes(w http.ResponseWriter, r *http.Request) {
	teams, ok := a.readerTeams(w, r)
	if !ok {
		return
	}
	cursor, limit, ok := a.listPage(w, r)
	if !ok {
		return
	}
	nodes, err := a.h.TeamNodes(r.Context(), teams)
	if err != nil {
		a.fail(w, err)
		return
	}
	p, err := page(nodes, hubwire.TeamNode.Key, cursor, limit)
	if err != nil {
		a.fail(w, err)
		return
	}
	out := hubwire.TeamNodePage{Page: p}
	for _, n := range nodes {
		if n.Link.Up {
			out.Online++
		}
	}
	writeJSON(w, http.StatusOK, out)
}

func (a *api) stats(w http.ResponseWriter, r *http.Request) {
	q, ok := a.statsQuery(w, r)
	if !ok {
		return
	}
	st, err := a.h.StatsSummary(q)
	if err != nil {
		a.fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, st)
}

// statsParams are the parameters of GET /api/stats; its lists take
// pageParams too.
var statsParams = []string{"period", "days", "since", "until", "workspace", "rule", "team", "member"}

// statsQuery reads the stats query of r (statsParams, and pageParams
// for a list), or answers why it cannot.
func (a *api) statsQuery(w http.ResponseWriter, r *http.Request, extra ...string) (Query, bool) {
	teams, ok := a.readerTeams(w, r)
	if !ok {
		return Query{}, false
	}
	v := r.URL.Query()
	known := append(slices.Clone(statsParams), extra...)
	for k := range v {
		if !slices.Contains(known, k) {
			a.fail(w, fmt.Errorf("%w: unknown parameter %q (%s)", ErrInvalid, k, strings.Join(known, ", ")))
			return Query{}, false
		}
	}
	q := Query{Period: v.Get("period"), Since: v.Get("since"), Until: v.Get("until"), Workspace: v.Get("workspace"), Rule: v.Get("rule"), Member: v.Get("member"), Teams: teams}
	switch q.Period {
	case "", hubwire.PeriodDaily, hubwire.PeriodWeekly, hubwire.PeriodMonthly:
	default:
		a.fail(w, fmt.Errorf("%w: period %q: want daily, weekly or monthly", ErrInvalid, q.Period))
		return Query{}, false
	}
	if d := v.Get("days"); d != "" {
		n, err := strconv.Atoi(d)
		if err != nil {
			a.fail(w, fmt.Errorf("%w: days %q is not a number", ErrInvalid, d))
			return Query{}, false
		}
		q.Days = n
	}
	if team := v.Get("team"); team != "" {
		if teams != nil && !slices.Contains(teams, team) {
			writeError(w, hubwire.CodeForbidden, fmt.Sprintf("this token may not read team %q", team))
			return Query{}, false
		}
		q.Teams = []string{team}
	}
	return q, true
}

// fail classifies err once, for the API's answer.
func (a *api) fail(w http.ResponseWriter, err error) {
	switch {
	case errors.Is(err, ErrInvalid):
		writeError(w, hubwire.CodeInvalid, err.Error())
	case errors.Is(err, ErrBadInvite):
		writeError(w, hubwire.CodeForbidden, err.Error()+"; ask the hub's admin for a new one (clumsies hub invite)")
	case errors.Is(err, ErrUnknownNode), errors.Is(err, ErrNotFound):
		writeError(w, hubwire.CodeNotFound, err.Error())
	case errors.Is(err, ErrDecided), errors.Is(err, ErrFull):
		writeError(w, hubwire.CodeConflict, err.Error())
	case errors.Is(err, ErrCatalogChanged):
		writeError(w, hubwire.CodeConflict, err.Error()+"; push again")
	default:
		a.h.logger.Error("hub API", "err", err)
		writeError(w, hubwire.CodeInternal, "internal error; see the hub's log")
	}
}

func readJSON(w http.ResponseWriter, r *http.Request, v any) bool {
	return readJSONUpTo(w, r, v, maxBody)
}

// readJSONUpTo reads a request body of at most limit bytes into v.
func readJSONUpTo(w http.ResponseWriter, r *http.Request, v any, limit int64) bool {
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, limit))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		writeError(w, hubwire.CodeInvalid, "read the request body: "+err.Error())
		return false
	}
	return true
}

// writeJSON answers v with status. v is encoded before anything is
// written: a value that does not encode answers 500 with the reason,
// never a 200 with an empty body.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		status = http.StatusInternalServerError
		b, _ = json.Marshal(hubwire.APIError{Error: "encode the answer: " + err.Error(), Code: hubwire.CodeInternal})
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(append(b, '\n'))
}

// writeError answers a failure with its code (one of hubwire's) and
// message.
func writeError(w http.ResponseWriter, code, msg string) {
	writeJSON(w, hubwire.StatusOf(code), hubwire.APIError{Error: msg, Code: code})
}

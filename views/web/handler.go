package web

import (
	"io"
	"log/slog"
	"net/http"
)

// Options configure Handler.
type Options struct {
	// MCP serves the Model Context Protocol over Streamable HTTP at /mcp,
	// every method (POST, GET, DELETE). Nil leaves /mcp unrouted (404).
	MCP http.Handler
	// Events serves GET /events, the live event stream; other methods get
	// 405. Nil leaves /events unrouted (404).
	Events http.Handler
	// UI serves the dashboard: every GET route not listed here (the pages,
	// /api/, /assets/). Nil leaves them unrouted (404).
	UI http.Handler
	// Metrics serves GET /metrics, the Prometheus metrics. Nil leaves
	// /metrics unrouted (404).
	Metrics http.Handler
	// Token, when not empty, is required of every request except GET
	// /healthz, as the header Authorization: Bearer <Token>.
	Token string
	// Logger receives a line for every request refused for its token or
	// its Host (warn). Nil discards them.
	Logger *slog.Logger
}

// Handler returns the HTTP front of a workspace:
//
//   - /mcp: opts.MCP, but a request with an Origin header that is neither
//     this server's nor a loopback origin gets 403;
//   - GET /events: opts.Events;
//   - GET /metrics: opts.Metrics;
//   - any other GET: opts.UI, the dashboard;
//   - GET /healthz: "ok", with no authentication, for load balancers and
//     container health checks; the connection is closed after it;
//   - anything else: 404.
//
// With opts.Token set, a request without the right bearer token gets 401
// with a WWW-Authenticate: Bearer challenge, and its connection is closed
// (as after a 403), so that a client without the token cannot keep idle
// connections open; tokens are compared in
// constant time. A browser, which cannot send the header on a page load or
// an EventSource, opens any GET route once with ?token=<token>: the answer
// sets the token as a cookie (HttpOnly, SameSite=Strict, named after the
// listener's port: clumsies_token_<port>) and redirects to the same URL
// without it; the cookie then stands for the header on GET and HEAD
// requests (never on a tool call). A ?token= comes before the cookie: a
// right one replaces it, a wrong one gets 401. A request that reaches a loopback address with a Host
// that is not a loopback name (a DNS-rebinding attack from a browser) gets
// 403.
func Handler(opts Options) http.Handler {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	routes := http.NewServeMux()
	if opts.MCP != nil {
		routes.Handle("/mcp", checkOrigin(log, opts.MCP))
	}
	if opts.Events != nil {
		routes.Handle("GET /events", opts.Events)
		routes.Handle("/events", onlyGet)
	}
	if opts.Metrics != nil {
		routes.Handle("GET /metrics", opts.Metrics)
		routes.Handle("/metrics", onlyGet)
	}
	routes.Handle("/", otherRoutes(opts.UI))

	var guarded http.Handler = routes
	if opts.Token != "" {
		guarded = requireToken(opts.Token, log, guarded)
	}
	guarded = guardHost(log, guarded)

	top := http.NewServeMux()
	top.HandleFunc("GET /healthz", healthz)
	top.Handle("/healthz", onlyGet)
	top.Handle("/", guarded)
	return top
}

// otherRoutes answers what no other route takes: a GET or HEAD goes to
// the dashboard, anything else gets 404.
func otherRoutes(dashboard http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if dashboard != nil && (r.Method == http.MethodGet || r.Method == http.MethodHead) {
			dashboard.ServeHTTP(w, r)
			return
		}
		notFound(w, r)
	})
}

// healthz answers "ok" and closes the connection: a probe needs no
// keep-alive, and anyone may ask, token or not, so nobody can hold idle
// connections through it. It takes no body: one gets 400, and is not
// read.
func healthz(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Connection", "close")
	if r.ContentLength != 0 {
		http.Error(w, "400 bad request: /healthz takes no body", http.StatusBadRequest)
		endUnread(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	io.WriteString(w, "ok\n")
}

func notFound(w http.ResponseWriter, r *http.Request) {
	http.Error(w, "404 not found: "+r.URL.Path+" (clumsies serves /mcp, /events and /healthz)", http.StatusNotFound)
}

// onlyGet answers a method other than GET (or HEAD) on a GET route.
var onlyGet = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Allow", "GET, HEAD")
	http.Error(w, "method "+r.Method+" not allowed: "+r.URL.Path+" answers GET only", http.StatusMethodNotAllowed)
})

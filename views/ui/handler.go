package ui

import (
	"context"
	"embed"
	"encoding/json"
	"io/fs"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/clumsies/clumsies/dayrange"
	"github.com/clumsies/clumsies/views/dash"
)

// Backend answers the API's pages: a node.Handle, in the owner or through
// its socket.
type Backend interface {
	Dash(ctx context.Context, req dash.Request) (dash.Reply, error)
}

//go:embed assets
var assets embed.FS

// pages are the paths that serve the page shell; the script renders the
// page the path names.
var pages = []string{"/{$}", "/rules", "/rules/{id...}", "/sessions", "/sessions/{id...}", "/drafts", "/live", "/search", "/commits", "/commits/{id...}"}

// Handler serves the dashboard: the pages at their paths, the API under
// /api/ and the embedded assets under /assets/, every answer Hardened.
// Unknown paths get 404.
// Logger receives a line for every API request that fails (error); nil
// discards them.
func Handler(b Backend, log *slog.Logger) http.Handler {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	mux := http.NewServeMux()
	shell, err := assets.ReadFile("assets/index.html")
	if err != nil {
		panic("ui: the embedded page is missing: " + err.Error())
	}
	for _, p := range pages {
		mux.HandleFunc("GET "+p, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Header().Set("Cache-Control", "no-cache")
			w.Header().Set("Content-Security-Policy", shellPolicy)
			w.Write(shell)
		})
	}
	sub, _ := fs.Sub(assets, "assets")
	mux.Handle("GET /assets/", http.StripPrefix("/assets/", http.FileServerFS(sub)))
	api := apiHandler{b: b, log: log}
	mux.HandleFunc("GET /api/overview", api.page(dash.PageOverview))
	mux.HandleFunc("GET /api/rules", api.page(dash.PageRules))
	mux.HandleFunc("GET /api/rules/{id...}", api.page(dash.PageRule))
	mux.HandleFunc("GET /api/sessions", api.page(dash.PageSessions))
	mux.HandleFunc("GET /api/sessions/{id...}", api.page(dash.PageSession))
	mux.HandleFunc("GET /api/drafts", api.page(dash.PageDrafts))
	mux.HandleFunc("GET /api/search", api.page(dash.PageSearch))
	mux.HandleFunc("GET /api/commits", api.page(dash.PageCommits))
	mux.HandleFunc("GET /api/commits/{id...}", api.page(dash.PageCommit))
	types, err := json.Marshal(dash.Types())
	if err != nil {
		panic("ui: the event types do not encode: " + err.Error())
	}
	mux.HandleFunc("GET /api/types", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		w.Write(append(types, '\n'))
	})
	mux.HandleFunc("GET /", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "404 not found: "+r.URL.Path+" (the dashboard has /, /rules, /sessions, /drafts, /live, /search, /commits and /api/)", http.StatusNotFound)
	})
	mux.HandleFunc("GET /api/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "no API route "+r.Method+" "+r.URL.Path+
			": the API answers GET /api/overview, /api/rules, /api/rules/{id}, /api/sessions, /api/sessions/{id}, /api/drafts, /api/search, /api/commits, /api/commits/{rev or base..head} and /api/types")
	})
	return Hardened(mux)
}

type apiHandler struct {
	b   Backend
	log *slog.Logger
}

func (a apiHandler) page(page string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		rg, err := dayrange.FromQuery(r.URL.Query(), time.Now())
		if err != nil {
			writeError(w, http.StatusBadRequest, err.Error())
			return
		}
		q := r.URL.Query()
		req := dash.Request{Page: page, ID: r.PathValue("id"), Range: rg, Q: q.Get("q"), Session: q.Get("session"), Rule: q.Get("rule")}
		if strings.Contains(r.URL.Path, "/api/") && (page == dash.PageRule || page == dash.PageSession || page == dash.PageCommit) && req.ID == "" {
			writeError(w, http.StatusNotFound, "missing id: GET /api/"+page+"s/{id}")
			return
		}
		if n := q.Get("n"); n != "" {
			if req.N, err = strconv.Atoi(n); err != nil || req.N < 1 {
				writeError(w, http.StatusBadRequest, "n="+n+": give how many commits to look at as a whole number from 1, such as n=50")
				return
			}
		}
		reply, err := a.b.Dash(r.Context(), req)
		if err != nil {
			a.log.Error("dashboard API request failed", "path", r.URL.Path, "err", err)
			writeError(w, http.StatusServiceUnavailable, "the read models cannot answer now ("+err.Error()+"); try again in a moment")
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(reply.Status)
		w.Write(reply.Body)
		w.Write([]byte("\n"))
	}
}

func writeError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(struct {
		Error string `json:"error"`
	}{msg})
}

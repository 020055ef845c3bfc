package ui

import (
	"io/fs"
	"net/http"
	"net/url"
)

// HubOptions configures HubHandler.
type HubOptions struct {
	// Cookie names the cookie that keeps the browser's token.
	Cookie string
	// Known reports whether a token is one the hub takes (the admin's or
	// a member's): only a known token is kept.
	Known func(token string) bool
	// Secure marks the cookie Secure (the hub's public URL is https);
	// a request that came over TLS gets it anyway.
	Secure bool
}

// HubHandler serves the hub's dashboard: a team's page at / and the
// embedded assets under /assets/; the page reads the hub's API (/api/stats,
// /api/team/nodes). The page itself holds no data, so it needs no token; a
// browser opens it once with ?token=<member token>, which the answer
// checks, keeps in the cookie opts.Cookie (HttpOnly, SameSite=Strict) and
// takes out of the address. A token the hub does not know gets 401 and
// sets nothing. The API checks the token.
func HubHandler(opts HubOptions) http.Handler {
	mux := http.NewServeMux()
	shell, err := assets.ReadFile("assets/hub.html")
	if err != nil {
		panic("ui: the embedded hub page is missing: " + err.Error())
	}
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		if token := r.URL.Query().Get("token"); token != "" {
			if opts.Known == nil || !opts.Known(token) {
				http.Error(w, "401 unauthorized: the hub knows no such token; ask its admin for one (clumsies hub token --name N --team T)", http.StatusUnauthorized)
				return
			}
			http.SetCookie(w, &http.Cookie{Name: opts.Cookie, Value: token, Path: "/", HttpOnly: true,
				SameSite: http.SameSiteStrictMode, Secure: opts.Secure || r.TLS != nil})
			q := r.URL.Query()
			q.Del("token")
			http.Redirect(w, r, (&url.URL{Path: r.URL.Path, RawQuery: q.Encode()}).RequestURI(), http.StatusSeeOther)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("Content-Security-Policy", shellPolicy)
		w.Write(shell)
	})
	sub, _ := fs.Sub(assets, "assets")
	mux.Handle("GET /assets/", http.StripPrefix("/assets/", http.FileServerFS(sub)))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "404 not found: "+r.URL.Path+" (the hub serves its dashboard at / and its API under /api/)", http.StatusNotFound)
	})
	return mux
}

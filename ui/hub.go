package ui

import (
	"io/fs"
	"net/http"
	"net/url"
)

// HubHandler serves the hub's dashboard: a team's page at / and the
// embedded assets under /assets/; the page reads the hub's API (/api/stats,
// /api/team/nodes). The page itself holds no data, so it needs no token; a
// browser opens it once with ?token=<member token>, which the answer keeps
// in the cookie cookieName (HttpOnly, SameSite=Strict) and takes out of
// the address. The API checks the token.
func HubHandler(cookieName string) http.Handler {
	mux := http.NewServeMux()
	shell, err := assets.ReadFile("assets/hub.html")
	if err != nil {
		panic("ui: the embedded hub page is missing: " + err.Error())
	}
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		if token := r.URL.Query().Get("token"); token != "" {
			http.SetCookie(w, &http.Cookie{Name: cookieName, Value: token, Path: "/", HttpOnly: true,
				SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil})
			q := r.URL.Query()
			q.Del("token")
			http.Redirect(w, r, (&url.URL{Path: r.URL.Path, RawQuery: q.Encode()}).RequestURI(), http.StatusSeeOther)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'")
		w.Write(shell)
	})
	sub, _ := fs.Sub(assets, "assets")
	mux.Handle("GET /assets/", http.StripPrefix("/assets/", http.FileServerFS(sub)))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "404 not found: "+r.URL.Path+" (the hub serves its dashboard at / and its API under /api/)", http.StatusNotFound)
	})
	return mux
}

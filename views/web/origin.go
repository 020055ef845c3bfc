package web

import (
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
)

// checkOrigin refuses with 403 a request whose Origin header is neither
// the server's own origin (its host and port are the request's Host) nor
// a loopback one (localhost, 127.0.0.0/8, [::1], any port), as the MCP
// Streamable HTTP transport requires of servers: a web page elsewhere
// must not drive a local server through its visitor's browser. A request
// without Origin (any client that is not a browser) goes through.
func checkOrigin(log *slog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		origin, sent := r.Header["Origin"]
		if !sent || allowedOrigin(origin[0], r.Host) {
			next.ServeHTTP(w, r)
			return
		}
		log.Warn("http request refused: a foreign Origin", "origin", origin[0], "path", r.URL.Path, "remote", r.RemoteAddr)
		w.Header().Set("Connection", "close")
		http.Error(w, fmt.Sprintf("403 forbidden: Origin %q is neither this server (%s) nor a loopback address", origin[0], r.Host), http.StatusForbidden)
	})
}

// allowedOrigin reports whether origin is host's own or a loopback origin.
func allowedOrigin(origin, host string) bool {
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" || u.Scheme != "http" && u.Scheme != "https" {
		return false // "null", a file: page, a malformed value
	}
	return strings.EqualFold(u.Host, host) || isLoopbackHost(u.Hostname())
}

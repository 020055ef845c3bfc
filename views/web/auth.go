package web

import (
	"crypto/sha256"
	"crypto/subtle"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
)

// requireToken lets a request through only with Authorization: Bearer
// <token>. Both tokens are hashed before the constant-time compare, so that
// neither the content nor the length of the token leaks through timing.
func requireToken(token string, log *slog.Logger, next http.Handler) http.Handler {
	want := sha256.Sum256([]byte(token))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		matches := func(got string) bool {
			sum := sha256.Sum256([]byte(got))
			return subtle.ConstantTimeCompare(sum[:], want[:]) == 1
		}
		got, sent := bearer(r.Header.Get("Authorization"))
		// ?token= (a page load's) comes before the cookie and replaces
		// it: a cookie left by an earlier token must not shut the door on
		// the right one.
		if q := r.URL.Query().Get("token"); !sent && q != "" && r.Method == http.MethodGet {
			if matches(q) {
				setTokenCookie(w, r, q)
				return
			}
			got, sent = q, true
		}
		reads := r.Method == http.MethodGet || r.Method == http.MethodHead
		if !sent && reads {
			// The dashboard's cookie stands for the header on reads only:
			// a tool call (POST /mcp) always carries the header.
			if c, err := r.Cookie(tokenCookie(r)); err == nil && c.Value != "" {
				got, sent = c.Value, true
			}
		}
		if sent && matches(got) {
			next.ServeHTTP(w, r)
			return
		}
		challenge, msg := `Bearer realm="clumsies"`, "401 unauthorized: send Authorization: Bearer <token>, the token the server requires: "+
			"the one in .clumsies/state/http-token unless it was started with --token-file or CLUMSIES_TOKEN; a browser opens /?token=<token> once"
		if sent {
			challenge += `, error="invalid_token"`
			msg = "401 unauthorized: wrong bearer token"
		}
		log.Warn("http request refused: bad or missing bearer token", "method", r.Method, "path", r.URL.Path, "remote", r.RemoteAddr, "token_sent", sent)
		w.Header().Set("WWW-Authenticate", challenge)
		w.Header().Set("Connection", "close")
		http.Error(w, msg, http.StatusUnauthorized)
		endUnread(w, r)
	})
}

// tokenCookie names the cookie that carries the token of a browser for
// the listener r reached: clumsies_token_<port>, the port of its Host (or
// of the address it reached, when the Host has none). A browser sends a
// host's cookies to every port of it, so that servers on two ports of
// one host need two names, or the one's cookie would stand for a wrong
// token at the other.
func tokenCookie(r *http.Request) string {
	_, port, err := net.SplitHostPort(r.Host)
	if err != nil || port == "" {
		if local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok && local != nil {
			_, port, _ = net.SplitHostPort(local.String())
		}
	}
	if port == "" {
		return "clumsies_token"
	}
	return "clumsies_token_" + port
}

// setTokenCookie answers a GET that carried the right ?token=: it sets
// the cookie and redirects to the URL without the token, so that the token
// leaves the address bar and the history.
func setTokenCookie(w http.ResponseWriter, r *http.Request, token string) {
	http.SetCookie(w, &http.Cookie{
		Name: tokenCookie(r), Value: token, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode,
		Secure: r.TLS != nil,
	})
	u := *r.URL
	q := u.Query()
	q.Del("token")
	u.RawQuery = q.Encode()
	u.Scheme, u.Host = "", ""
	http.Redirect(w, r, u.RequestURI(), http.StatusSeeOther)
}

// bearer returns the token of an Authorization header value of the form
// "Bearer <token>" (the scheme in any case), and whether there was one.
func bearer(header string) (string, bool) {
	scheme, token, ok := strings.Cut(strings.TrimSpace(header), " ")
	token = strings.TrimSpace(token)
	if !ok || !strings.EqualFold(scheme, "Bearer") || token == "" {
		return "", false
	}
	return token, true
}

// guardHost refuses a request that reached a loopback address with a Host
// header that is not a loopback name. A browser tricked by DNS rebinding
// (evil.example resolving to 127.0.0.1) sends its own host name, so this
// keeps web pages from reading the ledger or calling tools of a local
// server that has no token. The MCP SDK does the same for /mcp; this covers
// every route.
func guardHost(log *slog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
		if ok && local != nil && isLoopbackHost(hostOf(local.String())) && !isLoopbackHost(hostOf(r.Host)) {
			log.Warn("http request refused: non-loopback Host on a loopback address", "host", r.Host, "path", r.URL.Path, "remote", r.RemoteAddr)
			w.Header().Set("Connection", "close")
			http.Error(w, fmt.Sprintf("403 forbidden: Host %q is not localhost, 127.0.0.1 or [::1]; "+
				"a server on a loopback address answers only loopback names", r.Host), http.StatusForbidden)
			endUnread(w, r)
			return
		}
		next.ServeHTTP(w, r)
	})
}

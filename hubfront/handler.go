package hubfront

import (
	"crypto/sha256"
	"crypto/subtle"
	"log/slog"
	"net/http"
	"strings"

	"github.com/clumsies/clumsies/hub"
	"github.com/clumsies/clumsies/hub/hubwire"
	"github.com/clumsies/clumsies/views/metrics"
	"github.com/clumsies/clumsies/views/ui"
)

// Handler is the hub's HTTP front: its API under /api/, its metrics at
// /metrics (admin token) and the team's dashboard at /, every answer
// hardened against sniffing, framing and referrers, and compressed
// (gzip) for a client that accepts it. secure marks the
// dashboard's cookie Secure (the hub's public URL is https). version is
// the build's, given in /metrics as clumsies_build_info.
func Handler(h *hub.Hub, adminToken string, secure bool, logger *slog.Logger, version string) http.Handler {
	admin := sha256.Sum256([]byte(adminToken))
	known := func(token string) bool {
		sum := sha256.Sum256([]byte(token))
		return subtle.ConstantTimeCompare(sum[:], admin[:]) == 1 || h.KnownToken(token)
	}
	mux := http.NewServeMux()
	mux.Handle("/api/", hub.Handler(h, adminToken))
	mux.Handle("GET /metrics", adminOnly(adminToken, metrics.HubHandler(h, logger, version)))
	mux.Handle("/", ui.HubHandler(ui.HubOptions{Cookie: hubwire.TokenCookie, Known: known, Secure: secure}))
	return ui.Hardened(compressed(mux))
}

// adminOnly lets a request through only with the admin token as its
// bearer token.
func adminOnly(token string, next http.Handler) http.Handler {
	want := sha256.Sum256([]byte(token))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		sum := sha256.Sum256([]byte(strings.TrimSpace(got)))
		if subtle.ConstantTimeCompare(sum[:], want[:]) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="clumsies hub"`)
			http.Error(w, "401 unauthorized: /metrics needs the hub's admin token (Authorization: Bearer <token>)", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}

package web

import (
	"context"
	"net/http"
	"time"
)

// endUnread ends a refused request (no token, a wrong one, a foreign Host
// or Origin, a body where none is taken) once its answer is written: the
// answer is sent now and the rest of the body is not read. The server
// would otherwise drain the body before closing, waiting on a client that
// sends it a byte every few seconds for as long as BodyTimeout, and such
// clients would hold every connection a client may have. The connection
// is closed (the answer says Connection: close, which the caller sets
// before writing) and stops counting against its client's connections
// (Limits.MaxRefused).
func endUnread(w http.ResponseWriter, r *http.Request) {
	rc := http.NewResponseController(w)
	_ = rc.Flush()
	_ = rc.SetReadDeadline(time.Now())
	if c, ok := r.Context().Value(connKey{}).(*limitedConn); ok {
		c.l.refuse(c)
	}
}

// connKey is the request context's key of the *limitedConn it came on
// (ServeLimits' ConnContext).
type connKey struct{}

// withConn is the server's ConnContext: it lets endUnread find the
// connection a request came on.
func withConn(ctx context.Context, c any) context.Context {
	return context.WithValue(ctx, connKey{}, c)
}

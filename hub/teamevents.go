package hub

import (
	"fmt"
	"net/http"
	"time"
)

// How a team's change stream writes.
const (
	// changesKeepalive is how often an idle stream sends a comment, so
	// that proxies and the browser keep it open.
	changesKeepalive = 25 * time.Second
	// changesCoalesce is the least time between two change messages: a
	// burst of batches is one message.
	changesCoalesce = 250 * time.Millisecond
	// changesWriteTimeout bounds one write to a stream: a client that
	// stops reading loses its stream (the page reconnects).
	changesWriteTimeout = 10 * time.Second
)

// Changes returns the version of the figures of teams (nil: every team)
// and a channel closed when any team's figures may have changed.
func (h *Hub) Changes(teams []string) (uint64, <-chan struct{}) { return h.changes.since(teams) }

// teamEvents serves GET /api/team/events: a server-sent event stream that
// says "changed" whenever the figures or the reviews of the teams the
// token may read may have changed, so that the dashboard asks again. It
// carries no figures: what a page shows comes from the API, with the same
// access rules.
func (a *api) teamEvents(w http.ResponseWriter, r *http.Request) {
	teams, ok := a.readerTeams(w, r)
	if !ok {
		return
	}
	rc := http.NewResponseController(w)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	write := func(msg string) bool {
		if err := rc.SetWriteDeadline(time.Now().Add(changesWriteTimeout)); err != nil && err != http.ErrNotSupported {
			return false
		}
		if _, err := fmt.Fprint(w, msg); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	// Taken before the stream's first bytes: a client that sees the
	// stream open hears of every change after that.
	last, ch := a.h.Changes(teams)
	if !write(": the figures of your teams; a \"changed\" event means: ask the API again\n\n") {
		return
	}
	keepalive := time.NewTicker(changesKeepalive)
	defer keepalive.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-keepalive.C:
			if !write(": keepalive\n\n") {
				return
			}
			continue
		case <-ch:
		}
		v, next := a.h.Changes(teams)
		ch = next
		if v == last {
			continue // another team changed
		}
		last = v
		if !write("event: changed\ndata: {}\n\n") {
			return
		}
		select {
		case <-r.Context().Done():
			return
		case <-time.After(changesCoalesce):
		}
	}
}

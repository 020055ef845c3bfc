package live

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/clumsies/clumsies/events"
)

// handler serves event streams of one log.
type handler struct {
	log     events.Log
	opts    Options
	slots   slots
	clients *clients
}

// Handler returns an http.Handler that streams the events of log as
// Server-Sent Events (text/event-stream).
//
// It answers GET only (405 otherwise). Query parameters:
//
//   - type=<prefix>, repeatable: only events whose type starts with one of
//     the prefixes, matched by whole dot-separated tokens ("attest.refer",
//     "catalog").
//   - since=<seq>: start after that sequence, for clients that cannot set
//     the Last-Event-ID header, which takes precedence when both are sent.
//   - from=<seq>: start at that sequence; from=1 replays the whole ledger.
//
// Without a position the stream starts with the next event appended. A
// malformed value, an unknown parameter or a position past the newest event
// gets 400 with a message saying what is wrong. Past opts.MaxClients
// concurrent streams, or opts.MaxPerClient streams from one address, a
// request gets 503 with Retry-After. A client that stops reading loses its
// stream after opts.WriteTimeout; what it holds meanwhile is bounded by the
// log's subscription and the connection's buffers.
//
// A stream ends when the request's context ends. http.Server.Shutdown does
// not cancel the contexts of running requests: give the server a
// BaseContext that is cancelled on shutdown, or call Close, so that streams
// end promptly.
func Handler(log events.Log, opts Options) http.Handler {
	opts = opts.withDefaults()
	return &handler{log: log, opts: opts, slots: newSlots(opts.MaxClients), clients: newClients(opts.MaxPerClient)}
}

// ServeHTTP implements http.Handler.
func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet {
		w.Header().Set("Allow", http.MethodGet)
		http.Error(w, "method not allowed: the event stream answers GET only", http.StatusMethodNotAllowed)
		return
	}
	req, err := parseRequest(r)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if !h.slots.take() {
		h.opts.Logger.Warn("event stream refused: every slot taken", "max_clients", h.opts.MaxClients, "remote", r.RemoteAddr)
		w.Header().Set("Retry-After", retryAfter)
		http.Error(w, fmt.Sprintf("too many event streams open (at most %d): try again later", h.opts.MaxClients),
			http.StatusServiceUnavailable)
		return
	}
	defer h.slots.give()
	client := clientKey(r)
	if !h.clients.take(client) {
		h.opts.Logger.Warn("event stream refused: too many from one client", "max_per_client", h.opts.MaxPerClient, "remote", r.RemoteAddr)
		w.Header().Set("Retry-After", retryAfter)
		http.Error(w, fmt.Sprintf("too many event streams open from %s (at most %d): close one or try again later", client, h.opts.MaxPerClient),
			http.StatusServiceUnavailable)
		return
	}
	defer h.clients.give(client)

	ctx := r.Context()
	last, err := h.log.LastSeq(ctx)
	if err != nil {
		h.opts.Logger.Error("event stream: read last sequence", "error", err)
		http.Error(w, "the event log is unavailable: try again later", http.StatusServiceUnavailable)
		return
	}
	first, err := req.start.resolve(last)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if err := h.stream(ctx, w, first, req.filter); err != nil {
		h.opts.Logger.Error("event stream ended", "from", first, "remote", r.RemoteAddr, "error", err)
	}
}

// stream writes the response headers and then every selected event from
// sequence first on, until ctx ends (returning nil) or the log or the
// connection fails.
func (h *handler) stream(ctx context.Context, w http.ResponseWriter, first uint64, f filter) error {
	rc := http.NewResponseController(w)
	// A server-wide WriteTimeout would cut every stream; streams end with
	// their request instead.
	if err := rc.SetWriteDeadline(time.Time{}); err != nil && !errors.Is(err, http.ErrNotSupported) {
		return fmt.Errorf("clear write deadline: %w", err)
	}
	hdr := w.Header()
	hdr.Set("Content-Type", "text/event-stream")
	hdr.Set("Cache-Control", "no-cache")
	hdr.Set("X-Accel-Buffering", "no") // nginx: do not buffer the stream
	w.WriteHeader(http.StatusOK)
	out := &sseWriter{w: w, rc: rc, timeout: h.opts.WriteTimeout}
	if err := out.flush(); err != nil {
		return err
	}

	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer wg.Wait() // runs after cancel: the subscription has ended
	defer cancel()
	evs := make(chan events.Event)
	subErr := make(chan error, 1)
	wg.Go(func() { subErr <- subscribe(ctx, h.log, first, f, evs) })

	idle := time.NewTimer(h.opts.Heartbeat)
	defer idle.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case err := <-subErr:
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("follow the log from %d: %w", first, err)
		case ev := <-evs:
			if err := out.event(ev); err != nil {
				return h.clientGone(err)
			}
		case <-idle.C:
			if err := out.comment("ping"); err != nil {
				return h.clientGone(err)
			}
		}
		idle.Reset(h.opts.Heartbeat)
	}
}

// subscribe follows log from first and hands every event f selects to out,
// until ctx ends.
func subscribe(ctx context.Context, log events.Log, first uint64, f filter, out chan<- events.Event) error {
	return log.Subscribe(ctx, first, func(ev events.Event) error {
		if !f.match(ev.Type) {
			return nil
		}
		select {
		case out <- ev:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	})
}

// clientGone ends a stream whose write failed. A client that hangs up is
// how streams normally end, so it is not an error.
func (h *handler) clientGone(err error) error {
	h.opts.Logger.Debug("event stream: client gone", "error", err)
	return nil
}

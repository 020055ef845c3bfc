package web

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"time"
)

// Timeouts of the HTTP server.
const (
	// ShutdownGrace bounds how long Serve waits, once its context ends, for
	// requests in flight (a tool call) to finish.
	ShutdownGrace = 5 * time.Second
	// ReadHeaderTimeout bounds how long a client may take to send the
	// headers of a request.
	ReadHeaderTimeout = 10 * time.Second
	// IdleTimeout bounds how long an idle keep-alive connection is kept.
	IdleTimeout = 2 * time.Minute
)

// Serve serves h on ln until ctx ends, then shuts down gracefully and
// returns nil. It closes ln.
//
// Shutting down stops accepting connections and at once ends every GET
// request: those are the long-lived streams (the ledger's SSE stream at
// /events, the MCP server-to-client stream at GET /mcp), which would
// otherwise hold the shutdown until its deadline. Other requests (a tool
// call over POST /mcp) get ShutdownGrace to finish; past it their contexts
// are cancelled too (the server's BaseContext), the connections closed, and
// Serve returns an error. It returns an error at once if serving fails.
//
// The server has no write timeout, which would cut the streams; it sets
// ReadHeaderTimeout, IdleTimeout, MaxHeaderBytes and DefaultLimits.
func Serve(ctx context.Context, ln net.Listener, h http.Handler) error {
	return ServeLimits(ctx, ln, h, DefaultLimits)
}

// ServeLimits is Serve with other limits.
func ServeLimits(ctx context.Context, ln net.Listener, h http.Handler, lim Limits) error {
	var track func(net.Conn, http.ConnState)
	if lim.MaxConns > 0 || lim.MaxConnsPerClient > 0 {
		cl := newConnLimiter(ln, lim)
		ln, track = cl, cl.track
	}
	base, cancelBase := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelBase()
	streams, endStreams := context.WithCancel(base)
	defer endStreams()
	hs := &http.Server{
		Handler:           endGetsWith(streams, limitBodies(lim, h)),
		ReadHeaderTimeout: ReadHeaderTimeout,
		MaxHeaderBytes:    MaxHeaderBytes,
		IdleTimeout:       IdleTimeout,
		BaseContext:       func(net.Listener) context.Context { return base },
		ConnContext:       func(ctx context.Context, c net.Conn) context.Context { return withConn(ctx, c) },
		ConnState:         track,
	}
	addr := ln.Addr()
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	select {
	case err := <-served:
		return fmt.Errorf("web: serve HTTP on %s: %w", addr, err)
	case <-ctx.Done():
	}

	endStreams()
	sctx, cancel := context.WithTimeout(context.Background(), ShutdownGrace)
	defer cancel()
	err := hs.Shutdown(sctx)
	if err != nil {
		cancelBase()
		_ = hs.Close()
		err = fmt.Errorf("web: shut down HTTP on %s: requests still running after %s: %w", addr, ShutdownGrace, err)
	}
	<-served // http.ErrServerClosed
	return err
}

// endGetsWith cancels the context of every GET request when stop ends.
func endGetsWith(stop context.Context, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet {
			h.ServeHTTP(w, r)
			return
		}
		ctx, cancel := context.WithCancel(r.Context())
		defer cancel()
		unhook := context.AfterFunc(stop, cancel)
		defer unhook()
		h.ServeHTTP(w, r.WithContext(ctx))
	})
}

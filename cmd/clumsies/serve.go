package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/clumsies/clumsies/mcp"
)

// ServeCommand runs the MCP server.
type ServeCommand struct {
	m    *Main
	ws   wsFlags
	http string
}

// Run implements command. Over stdio it returns when the client closes
// stdin or on SIGINT/SIGTERM, after a clean shutdown.
func (c *ServeCommand) Run(ctx context.Context, args []string) error {
	fs := c.m.newFlags("serve", "serve [--workspace DIR] [--http ADDR] [--sync always|interval]")
	c.ws.register(fs)
	fs.StringVar(&c.http, "http", "", "serve Streamable HTTP at `ADDR` (e.g. 127.0.0.1:7333) under /mcp instead of stdio")
	if err := parse(fs, args); err != nil {
		return err
	}
	n, err := c.ws.open(ctx, c.m, true)
	if err != nil {
		return err
	}
	defer n.Close()
	if _, err := n.Publish(ctx); err != nil {
		return err
	}
	logger, _ := c.ws.logger(c.m.Stderr)
	srv := mcp.NewServer(mcp.Config{
		WorkspaceID: n.WS.ID(),
		Catalog:     n.Store,
		Ledger:      n,
		Logger:      logger,
		Version:     version,
	})
	if c.http == "" {
		return srv.ServeStdio(ctx, c.m.Stdin, c.m.Stdout)
	}
	return serveHTTP(ctx, c.http, srv.HTTPHandler(), c.m)
}

func serveHTTP(ctx context.Context, addr string, h http.Handler, m *Main) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", addr, err)
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(m.Stderr, "clumsies: serving MCP at http://%s/mcp\n", ln.Addr())
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := hs.Shutdown(sctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
			return err
		}
		return nil
	}
}

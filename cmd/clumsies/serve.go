package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/clumsies/clumsies/mcp"
	"github.com/clumsies/clumsies/node"
)

// ServeCommand runs the MCP server. Any number of them may serve one
// workspace: the first owns it, the others work through the owner and take
// over when it goes (see node.Attach).
type ServeCommand struct {
	m          *Main
	ws         wsFlags
	http       string
	natsListen string
	listenAny  bool
	natsToken  string
}

// tokenEnv names the environment variable that may hold --nats-token.
const tokenEnv = "CLUMSIES_NATS_TOKEN"

var (
	_ mcp.Catalog = (*node.Handle)(nil)
	_ mcp.Ledger  = (*node.Handle)(nil)
)

// Run implements command. Over stdio it returns when the client closes
// stdin or on SIGINT/SIGTERM, after a clean shutdown.
func (c *ServeCommand) Run(ctx context.Context, args []string) error {
	fs := c.m.newFlags("serve", "serve [--workspace DIR] [--http ADDR] [--sync always|interval] [--nats-listen ADDR --nats-token T]")
	c.ws.register(fs)
	fs.StringVar(&c.http, "http", "", "serve Streamable HTTP at `ADDR` (e.g. 127.0.0.1:7333) under /mcp instead of stdio")
	fs.StringVar(&c.natsListen, "nats-listen", "", "while this process owns the workspace, let NATS clients (analytics consumers) in over TCP at `ADDR` (host:port, loopback only unless --nats-listen-any); needs --nats-token")
	fs.BoolVar(&c.listenAny, "nats-listen-any", false, "allow --nats-listen on a non-loopback address")
	fs.StringVar(&c.natsToken, "nats-token", "", "the `token` NATS clients must give with --nats-listen (default: $"+tokenEnv+")")
	if err := parse(fs, args); err != nil {
		return err
	}
	opts, err := c.natsOptions()
	if err != nil {
		return err
	}
	h, err := c.ws.attach(ctx, c.m, opts)
	if err != nil {
		return err
	}
	defer h.Close()
	if _, err := h.Publish(ctx); err != nil {
		return err
	}
	logger, _ := c.ws.logger(c.m.Stderr)
	srv := mcp.NewServer(mcp.Config{
		WorkspaceID: h.Workspace().ID(),
		Catalog:     h,
		Ledger:      h,
		Logger:      logger,
		Version:     version,
	})
	if c.http == "" {
		return srv.ServeStdio(ctx, c.m.Stdin, c.m.Stdout)
	}
	return serveHTTP(ctx, c.http, srv.HTTPHandler(), c.m)
}

// natsOptions checks the NATS listener flags.
func (c *ServeCommand) natsOptions() (node.Options, error) {
	token := c.natsToken
	if token == "" {
		token = os.Getenv(tokenEnv)
	}
	if c.natsListen == "" {
		return node.Options{}, nil
	}
	host, _, err := net.SplitHostPort(c.natsListen)
	if err != nil {
		return node.Options{}, fmt.Errorf("%w: --nats-listen %q: want host:port", errUsage, c.natsListen)
	}
	if !c.listenAny && !isLoopback(host) {
		return node.Options{}, fmt.Errorf("%w: --nats-listen %q is not a loopback address; add --nats-listen-any to listen on it", errUsage, c.natsListen)
	}
	if token == "" {
		return node.Options{}, fmt.Errorf("%w: --nats-listen needs --nats-token or $%s", errUsage, tokenEnv)
	}
	return node.Options{NATSListen: c.natsListen, NATSToken: token}, nil
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
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

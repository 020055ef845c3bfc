package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"syscall"

	"github.com/clumsies/clumsies/node"
	"github.com/clumsies/clumsies/views/live"
	"github.com/clumsies/clumsies/views/metrics"
	"github.com/clumsies/clumsies/views/ui"
	"github.com/clumsies/clumsies/views/web"
)

// DefaultUIAddr is where `clumsies ui` listens unless told otherwise.
const DefaultUIAddr = "127.0.0.1:7334"

// UICommand serves the read-only dashboard of a workspace.
type UICommand struct {
	m     *Main
	ws    wsFlags
	addr  string
	token tokenFlags
}

// Run implements command.
func (c *UICommand) Run(ctx context.Context, args []string) error {
	fs := c.m.newFlags("ui", "ui [--workspace DIR] [--addr ADDR] [--token-file PATH | --no-token] [--log-level L]")
	c.ws.register(fs)
	fs.StringVar(&c.addr, "addr", DefaultUIAddr, "serve the dashboard at `ADDR`; a bare port or :PORT binds 127.0.0.1")
	c.token.register(fs)
	if err := parse(fs, args); err != nil {
		return err
	}
	ws, err := c.ws.workspace()
	if err != nil {
		return err
	}
	token, err := c.token.resolve(c.m.Stderr, ws.StateDir())
	if err != nil {
		return err
	}
	ln, err := web.Listen(c.addr, token.Value)
	if err != nil {
		return uiListenError(c.addr, err)
	}
	defer ln.Close()
	h, err := c.ws.attach(ctx, c.m, node.Options{})
	if err != nil {
		return err
	}
	defer h.Close()
	logger, _ := c.ws.logger(c.m.Stderr)
	handler := web.Handler(dashboardOptions(h, logger, token.Value, metrics.Options{SyncAlways: c.ws.sync != "interval"}, web.Options{}))
	fmt.Fprintf(c.m.Stdout, "http://%s/\n", ln.Addr())
	announce(c.m.Stderr, token, ln.Addr())
	return web.Serve(ctx, ln, handler)
}

// uiListenError is listenError for --addr of ui.
func uiListenError(addr string, err error) error {
	switch {
	case errors.Is(err, web.ErrBadAddress), errors.Is(err, web.ErrTokenRequired):
		return fmt.Errorf("%w: --addr: %v", errUsage, err)
	case errors.Is(err, syscall.EADDRINUSE):
		return fmt.Errorf("--addr %s: the address is in use (another clumsies ui?); stop that process or pick another port (--addr 127.0.0.1:0 picks a free one)", addr)
	}
	return fmt.Errorf("--addr %s: %w", addr, err)
}

// dashboardOptions adds the dashboard, the live stream and the metrics of
// h to opts.
func dashboardOptions(h *node.Handle, logger *slog.Logger, token string, mopts metrics.Options, opts web.Options) web.Options {
	mopts.Logger = logger
	mopts.Version = version()
	reg := metrics.New(h, mopts)
	opts.UI = ui.Handler(h, logger)
	opts.Metrics = reg.Handler()
	opts.Events = reg.CountStreams(live.Handler(h, live.Options{Logger: logger}))
	opts.Token = token
	opts.Logger = logger
	return opts
}

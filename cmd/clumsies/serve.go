package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"sync/atomic"
	"syscall"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/events/natsjs"
	"github.com/clumsies/clumsies/internal/gcpace"
	"github.com/clumsies/clumsies/mcp"
	"github.com/clumsies/clumsies/mcp/frame"
	"github.com/clumsies/clumsies/node"
	"github.com/clumsies/clumsies/telemetry"
	"github.com/clumsies/clumsies/views/metrics"
	"github.com/clumsies/clumsies/views/web"
	"github.com/clumsies/clumsies/workspace"
)

// ServeCommand runs the MCP server. Any number of them may serve one
// workspace: the first owns it, the others work through the owner and take
// over when it goes (see node.Attach).
type ServeCommand struct {
	m          *Main
	ws         wsFlags
	http       string
	token      tokenFlags
	natsListen string
	listenAny  bool
	natsToken  string
	readOnly   bool
	every      int
	pprof      string
	// serving is the open workspace, once it is (gcpace.FollowServing paces the
	// collector by whether this process owns it).
	serving atomic.Pointer[node.Handle]
	// telemetry is the OpenTelemetry export, nil when [otel] names no
	// endpoint.
	telemetry *telemetry.Exporter
}

// Environment variables that may hold the tokens.
const (
	tokenEnv     = "CLUMSIES_NATS_TOKEN" // --nats-token
	httpTokenEnv = "CLUMSIES_TOKEN"      // --token, --token-file
)

var (
	_ mcp.Catalog = (*node.Handle)(nil)
	_ mcp.Ledger  = (*node.Handle)(nil)
)

// Run implements command. Over stdio it returns when the client closes
// stdin or on SIGINT/SIGTERM, after a clean shutdown.
func (c *ServeCommand) Run(ctx context.Context, args []string) error {
	fs := c.m.newFlags("serve", "serve [--workspace DIR] [--http ADDR [--token-file PATH | --no-token]] [--read-only] [--checkpoint-every N] [--sync always|interval] [--nats-listen ADDR --nats-token T] [--pprof ADDR] [--log-level L]")
	c.ws.register(fs)
	c.ws.registerSync(fs)
	fs.StringVar(&c.http, "http", "", "serve Streamable HTTP at `ADDR` instead of stdio: MCP at /mcp, live events (SSE) at /events; a bare port or :PORT binds 127.0.0.1")
	c.token.register(fs)
	fs.StringVar(&c.natsListen, "nats-listen", "", "while this process owns the workspace, let NATS clients (analytics consumers) in over TCP at `ADDR` (host:port, loopback only unless --nats-listen-any); needs --nats-token")
	fs.BoolVar(&c.listenAny, "nats-listen-any", false, "allow --nats-listen on a non-loopback address")
	fs.StringVar(&c.natsToken, "nats-token", "", "the token `T` NATS clients must give with --nats-listen (default: $"+tokenEnv+")")
	fs.IntVar(&c.every, "checkpoint-every", node.DefaultCheckpointEvery, "while this process owns the workspace, pin the ledger's hash chain with a ledger.checkpoint event every `N` events and at shutdown; 0: none")
	fs.BoolVar(&c.readOnly, "read-only", false, "refuse every change (artifact answers read_only) and do not publish the content tree; also read_only = true in config.toml")
	fs.StringVar(&c.pprof, "pprof", "", "serve Go's profiles (/debug/pprof/) on this `host:port`, for debugging; no auth, keep it on loopback")
	if err := parse(fs, args); err != nil {
		return err
	}
	opts, err := c.natsOptions()
	if err != nil {
		return err
	}
	if c.every < 0 {
		return fmt.Errorf("%w: --checkpoint-every must be 0 or more, not %d", errUsage, c.every)
	}
	opts.CheckpointEvery = c.every
	if c.pprof != "" {
		stop, err := servePprof(c.pprof)
		if err != nil {
			return err
		}
		defer stop()
	}
	ws, err := c.ws.workspace()
	if err != nil {
		return err
	}
	readOnly := c.readOnly || ws.Config.ReadOnly
	exp, stopTelemetry := c.startTelemetry(ctx, ws, c.m.Stderr)
	defer stopTelemetry()
	warnConfigOff(c.m.Stderr, ws.Config)
	notice := agentNotice(ws.Config)
	c.telemetry = exp
	var ln net.Listener
	var token web.Token
	if c.http != "" {
		if token, err = c.token.resolve(c.m.Stderr, ws.StateDir()); err != nil {
			return err
		}
		if ln, err = web.Listen(c.http, token.Value); err != nil {
			return listenError(c.http, err)
		}
		defer ln.Close()
	}
	// Whichever serve owns the workspace watches the content tree and
	// publishes every change, so that an edit reaches the agents without
	// `clumsies publish`.
	// A read-only server changes nothing: no watch, no publish.
	published := &publishReport{w: c.m.Stderr}
	if !readOnly {
		opts.WatchContent = published.report
	}
	if ln == nil {
		return c.serveStdio(ctx, ws.ID(), ws.Root, earlyFrame(ws), notice, readOnly, opts, published)
	}
	go gcpace.FollowServing(ctx, c.owner)
	h, err := c.ws.attach(ctx, c.m, opts)
	if err != nil {
		return err
	}
	defer h.Close()
	c.serving.Store(h)
	// A bad content file must not take the agent's tools away: serve what
	// was published last and say what to fix (`clumsies publish` fails on
	// the same file with the same message). The owner's watch publishes
	// too; the report says each thing once.
	if !readOnly {
		published.report(h.Publish(ctx))
	}
	c.announceListener(h, opts)
	logger, _ := c.ws.logger(c.m.Stderr)
	srv := mcp.NewServer(mcp.Config{
		WorkspaceID: h.Workspace().ID(),
		Root:        h.Workspace().Root,
		Catalog:     h,
		Ledger:      h,
		Logger:      logger,
		Version:     version(),
		ReadOnly:    readOnly,
		Notice:      notice,
		Observer:    observer(c.telemetry),
	})
	// The export's drops read 0 without an export.
	mopts := metrics.Options{SyncAlways: c.ws.sync != "interval", TelemetryDropped: c.telemetry.Dropped}
	handler := web.Handler(dashboardOptions(h, logger, token.Value, mopts, web.Options{MCP: srv.HTTPHandler()}))
	fmt.Fprintf(c.m.Stderr, "clumsies: serving MCP at http://%s/mcp, live events at http://%s/events and the dashboard at http://%s/\n", ln.Addr(), ln.Addr(), ln.Addr())
	announce(c.m.Stderr, token, ln.Addr())
	go srv.WatchPrompts(ctx, mcp.PromptsInterval)
	return web.Serve(ctx, ln, handler)
}

// serveStdio serves MCP over stdin and stdout while the workspace opens
// in the background: initialize is answered at once (its instructions
// from the META_PROMPT file), and the first tool call waits for the
// ledger, the read models and the publish scan. A workspace that cannot be
// opened makes every call answer unavailable with the reason (logged on
// stderr too), and is serve's error when the session ends.
func (c *ServeCommand) serveStdio(ctx context.Context, wsID, root string, frame func() (string, error), notice string, readOnly bool, opts node.Options, published *publishReport) error {
	// Mistakes in the flags are answered before anything is served.
	if _, err := c.ws.syncMode(); err != nil {
		return err
	}
	if _, err := c.ws.logger(c.m.Stderr); err != nil {
		return err
	}
	o := node.NewOpening()
	out := newFirstWrite(c.m.Stdout)
	go func() {
		// The collector is paced from the session's first answer on (or
		// from the open, for a client that sends nothing): at gcpace.ServingPercent
		// from the start it collects once or twice before initialize is
		// answered, and on a loaded machine a collection's pauses cost
		// the answer milliseconds (BENCHMARKS.md, "One binary").
		select {
		case <-out.written:
		case <-o.Ready():
		case <-ctx.Done():
			return
		}
		gcpace.FollowServing(ctx, c.owner)
	}()
	go func() {
		h, err := c.ws.attach(ctx, c.m, opts)
		if err != nil {
			o.Done(nil, err)
			return
		}
		c.serving.Store(h)
		// A bad content file must not take the agent's tools away: serve
		// what was published last and say what to fix.
		if !readOnly {
			published.report(h.Publish(ctx))
		}
		c.announceListener(h, opts)
		o.Done(h, nil)
	}()
	logger, _ := c.ws.logger(c.m.Stderr)
	srv := mcp.NewServer(mcp.Config{
		WorkspaceID: wsID,
		Root:        root,
		Catalog:     o,
		Ledger:      o,
		Logger:      logger,
		Version:     version(),
		ReadOnly:    readOnly,
		Ready:       o.Ready(),
		EarlyFrame:  frame,
		Notice:      notice,
		Observer:    observer(c.telemetry),
	})
	if f, ok := c.m.Stdin.(*os.File); ok && isTerminal(f) {
		fmt.Fprintln(c.m.Stderr, "clumsies: serving MCP on stdin and stdout for an MCP client (Claude Code, Codex, Cursor, VS Code: see the README); press Ctrl-C to stop")
	}
	watch, stopWatch := context.WithCancel(ctx)
	defer stopWatch()
	go srv.WatchPrompts(watch, mcp.PromptsInterval)
	err := srv.ServeStdio(ctx, interruptible(c.m.Stdin), out)
	// The session is over: a workspace that could not be opened is
	// serve's error (its calls said so already); an open one is closed.
	<-o.Ready()
	h, openErr := o.Result()
	switch {
	case openErr != nil && ctx.Err() != nil:
		return err // stopped by a signal while opening: a clean exit
	case openErr != nil:
		return errors.Join(err, openErr)
	}
	h.Close()
	return err
}

// earlyFrame reads the META_PROMPT from the content tree, for the
// instructions of an initialize that comes before the workspace is open.
func earlyFrame(ws *workspace.Workspace) func() (string, error) {
	return func() (string, error) { return frame.Read(ws.ContentRoot()) }
}

// owner reports whether this process owns the workspace; true until it
// is open (gcpace.FollowServing).
func (c *ServeCommand) owner() bool {
	h := c.serving.Load()
	return h == nil || h.IsOwner()
}

// announceListener says where the NATS listener is, when this process
// owns the workspace and has one.
func (c *ServeCommand) announceListener(h *node.Handle, opts node.Options) {
	if opts.NATSListen == "" || !h.IsOwner() {
		return
	}
	ws := h.Workspace().ID()
	fmt.Fprintf(c.m.Stderr, "clumsies: NATS listener at nats://%s for readers with the token: stream %s, subjects %s\n",
		opts.NATSListen, natsjs.StreamName(ws), events.StreamSubjects(ws))
}

// listenError classifies a failure to open the --http listener: a bad
// address or a missing token is a usage error (status 2); an address in
// use or not available here is not, and says what to do.
func listenError(addr string, err error) error {
	switch {
	case errors.Is(err, web.ErrBadAddress), errors.Is(err, web.ErrTokenRequired):
		return fmt.Errorf("%w: --http: %v", errUsage, err)
	case errors.Is(err, syscall.EADDRINUSE):
		return fmt.Errorf("--http %s: the address is in use (another clumsies serve?); stop that process or pick another port (--http 0 picks a free one)", addr)
	}
	return fmt.Errorf("--http %s: %w", addr, err)
}

// natsOptions checks the NATS listener flags.
func (c *ServeCommand) natsOptions() (node.Options, error) {
	token := c.natsToken
	if token == "" {
		token = os.Getenv(tokenEnv)
	} else {
		fmt.Fprintf(c.m.Stderr, "clumsies: warning: every local user can read --nats-token in the process list; use $%s instead\n", tokenEnv)
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

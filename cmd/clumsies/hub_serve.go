package main

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"

	"github.com/clumsies/clumsies/hub"
	"github.com/clumsies/clumsies/hubfront"
	"github.com/clumsies/clumsies/views/web"
)

// HubInitCommand writes a hub's config and admin token.
type HubInitCommand struct {
	m    *Main
	json bool
}

// Run implements command.
func (c *HubInitCommand) Run(_ context.Context, args []string) error {
	fs := c.m.newFlags("hub init", "hub init [DIR] [--name N] [--leaf ADDR] [--http ADDR] [--cluster NAME --cluster-listen ADDR --routes URLS] [--json]")
	cfg := hub.Config{Data: "data"}
	fs.StringVar(&cfg.Name, "name", "clumsies-hub", "the hub's `name`")
	fs.StringVar(&cfg.Leaf, "leaf", "0.0.0.0:7422", "the leaf-node listener workspaces dial, `host:port`")
	fs.StringVar(&cfg.LeafURL, "leaf-url", "", "the `URL` workspaces are told to dial (default: nats-leaf://<leaf>)")
	fs.StringVar(&cfg.HTTP, "http", "127.0.0.1:7480", "the HTTP API listener, `host:port`")
	fs.StringVar(&cfg.HTTPURL, "http-url", "", "the API `URL` join tokens carry (default: http://<http>)")
	var routes string
	fs.StringVar(&cfg.Cluster.Name, "cluster", "", "join a hub cluster of this `name` (with --cluster-listen and --routes)")
	fs.StringVar(&cfg.Cluster.Listen, "cluster-listen", "", "this hub's cluster route listener, `host:port`")
	fs.StringVar(&routes, "routes", "", "the other hubs' route `URLs`, comma-separated (nats-route://host:port)")
	fs.BoolVar(&c.json, "json", false, "print JSON")
	pos, err := parsePositional(fs, args, 1)
	if err != nil {
		return err
	}
	if routes != "" {
		cfg.Cluster.Routes = strings.Split(routes, ",")
	}
	dir := "."
	if len(pos) == 1 {
		dir = pos[0]
	}
	token, err := hub.Init(dir, cfg)
	if err != nil {
		return err
	}
	abs, _ := filepath.Abs(filepath.Join(dir, hub.ConfigName))
	if c.json {
		return printJSON(c.m.Stdout, map[string]string{"config": abs, "adminToken": token})
	}
	fmt.Fprintf(c.m.Stdout, "Wrote %s\nAdmin token (also in %s): %s\n\nNext: clumsies hub serve --hub %s\n",
		abs, filepath.Join(dir, cfg.Data, "admin.token"), token, dir)
	return nil
}

// HubServeCommand runs a hub until SIGINT/SIGTERM.
type HubServeCommand struct {
	m     *Main
	dir   string
	log   string
	pprof string
}

// Run implements command.
func (c *HubServeCommand) Run(ctx context.Context, args []string) error {
	fs := c.m.newFlags("hub serve", "hub serve [--hub DIR] [--log-level L] [--pprof ADDR]")
	fs.StringVar(&c.dir, "hub", ".", "the hub's folder `DIR` (holding hub.toml)")
	fs.StringVar(&c.log, "log-level", "info", "stderr log `level`: debug, info, warn, error")
	fs.StringVar(&c.pprof, "pprof", "", "serve Go's profiles (/debug/pprof/) on this `host:port`, for debugging; no auth, keep it on loopback")
	if _, err := parsePositional(fs, args, 0); err != nil {
		return err
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(c.log)); err != nil {
		return fmt.Errorf("%w: --log-level %q: want debug, info, warn or error", errUsage, c.log)
	}
	logger := slog.New(slog.NewTextHandler(c.m.Stderr, &slog.HandlerOptions{Level: level}))
	cfg, err := hub.ReadConfig(c.dir)
	if err != nil {
		return err
	}
	token, err := cfg.AdminToken()
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", cfg.HTTP)
	if err != nil {
		return fmt.Errorf("listen for the hub's API: %w", err)
	}
	if c.pprof != "" {
		stop, err := servePprof(c.pprof)
		if err != nil {
			ln.Close()
			return err
		}
		defer stop()
	}
	h, err := hub.Start(ctx, cfg, logger)
	if err != nil {
		ln.Close()
		return err
	}
	defer h.Close()
	fmt.Fprintf(c.m.Stderr, "clumsies: hub %s serving: leaf links at %s, API at http://%s\n", cfg.Name, cfg.Leaf, ln.Addr())
	dash := "http://" + ln.Addr().String()
	if cfg.HTTPURL != "" {
		dash = cfg.APIURL()
	}
	fmt.Fprintf(c.m.Stderr, "clumsies: open %s once in a browser for the team's dashboard (the admin's token; it is kept as a cookie; clumsies hub ui prints it again)\n",
		dashboardURL(dash, token))
	return web.Serve(ctx, ln, hubfront.Handler(h, token, strings.HasPrefix(cfg.APIURL(), "https://"), logger, version()))
}

// HubRebuildCommand throws away a stopped hub's read models and applies
// its aggregate again.
type HubRebuildCommand struct {
	m   *Main
	dir string
}

// Run implements command.
func (c *HubRebuildCommand) Run(ctx context.Context, args []string) error {
	fs := c.m.newFlags("hub rebuild", "hub rebuild [--hub DIR]")
	fs.StringVar(&c.dir, "hub", ".", "the hub's folder `DIR` (holding hub.toml); the hub must be stopped")
	if _, err := parsePositional(fs, args, 0); err != nil {
		return err
	}
	cfg, err := hub.ReadConfig(c.dir)
	if err != nil {
		return err
	}
	applied, err := hub.Rebuild(ctx, cfg, nil)
	if err != nil {
		return err
	}
	fmt.Fprintf(c.m.Stdout, "Rebuilt the hub's read models from the aggregate through seq %d.\n", applied)
	return nil
}

// hubFolderHere reports whether the current folder is a hub's (holds
// hub.toml).
func hubFolderHere() bool {
	_, err := os.Stat(hub.ConfigName)
	return err == nil
}

// hubFolderAPI returns the API URL of the hub whose folder on this
// machine is dir, and its admin token when withToken is set.
func hubFolderAPI(dir string, withToken bool) (url, token string, err error) {
	cfg, err := hub.ReadConfig(dir)
	if err != nil {
		return "", "", err
	}
	if withToken {
		if token, err = cfg.AdminToken(); err != nil {
			return "", "", err
		}
	}
	return cfg.APIURL(), token, nil
}

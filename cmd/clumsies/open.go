package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"

	embeddednats "github.com/clumsies/clumsies/embedded-nats"
	"github.com/clumsies/clumsies/hublink"
	"github.com/clumsies/clumsies/node"
	"github.com/clumsies/clumsies/workspace"
)

// wsFlags are the flags every workspace command shares: --workspace and
// --log-level; --sync only where events are written (registerSync).
type wsFlags struct {
	dir  string
	sync string
	log  string
}

func (f *wsFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.dir, "workspace", "", "the workspace `DIR`: the project folder holding .clumsies/ (default: the nearest parent of the current folder holding it, else the current folder)")
	fs.StringVar(&f.log, "log-level", "warn", "the stderr log level, `debug|info|warn|error`")
}

// registerSync adds --sync, for the commands that append events.
func (f *wsFlags) registerSync(fs *flag.FlagSet) {
	fs.StringVar(&f.sync, "sync", "always", "`always|interval` durability: always answers once the event is fsynced (events that arrive together share one fsync); interval fsyncs periodically (faster; an OS crash may lose recent events). The process that owns the workspace decides: another process's setting applies once it takes over")
}

func (f *wsFlags) syncMode() (embeddednats.SyncMode, error) {
	switch f.sync {
	case "always", "":
		return embeddednats.SyncAlways, nil
	case "interval":
		return embeddednats.SyncInterval, nil
	}
	return 0, fmt.Errorf("%w: --sync must be always or interval, not %q", errUsage, f.sync)
}

func (f *wsFlags) logger(w io.Writer) (*slog.Logger, error) {
	var level slog.Level
	if err := level.UnmarshalText([]byte(f.log)); err != nil {
		return nil, fmt.Errorf("%w: --log-level %q: want debug, info, warn or error", errUsage, f.log)
	}
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: level})), nil
}

// workspace finds and reads the workspace. A --workspace that is not a
// folder is a usage error that says so.
func (f *wsFlags) workspace() (*workspace.Workspace, error) {
	if f.dir != "" {
		if err := checkFolder("--workspace", f.dir); err != nil {
			return nil, err
		}
	}
	dir, err := workspace.Resolve(f.dir)
	if err != nil {
		return nil, err
	}
	return workspace.Open(dir)
}

// checkFolder returns a usage error unless dir is an existing folder.
func checkFolder(flagName, dir string) error {
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%w: %s %s: no such folder; check the path", errUsage, flagName, dir)
	case err != nil:
		return fmt.Errorf("%w: %s %s: %v", errUsage, flagName, dir, err)
	case !fi.IsDir():
		return fmt.Errorf("%w: %s %s is a file; pass the project folder that holds (or will hold) .clumsies/", errUsage, flagName, dir)
	}
	return nil
}

// attach opens the workspace as its owner, or as a client of the process
// that owns it (see node.Attach). o carries the command's own options;
// the durability and the logger come from the flags. A command that does
// not need the hub sets o.LinkQuiet: a hub that is down then costs it no
// line on stderr.
func (f *wsFlags) attach(ctx context.Context, m *Main, o node.Options) (*node.Handle, error) {
	ws, err := f.workspace()
	if err != nil {
		return nil, err
	}
	if o.Sync, err = f.syncMode(); err != nil {
		return nil, err
	}
	if o.Logger, err = f.logger(m.Stderr); err != nil {
		return nil, err
	}
	if err := hubLink(ws, &o); err != nil {
		return nil, err
	}
	h, err := node.Attach(ctx, ws, o)
	if err != nil {
		return nil, err
	}
	go m.stopWhenGone(h)
	return h, nil
}

// isTerminal reports whether w (or a reader) is a terminal: a file the
// terminal's own calls answer for, not any character device (/dev/null is
// one and is no terminal).
func isTerminal(w any) bool {
	f, ok := w.(*os.File)
	return ok && isatty(f.Fd())
}

// attachData parses the flags of a workspace command that prints data
// (--json and the shared workspace flags, plus whatever fs already holds)
// and attaches to the workspace.
func (m *Main) attachData(ctx context.Context, fs *flag.FlagSet, args []string, ws *wsFlags, asJSON *bool, jsonUsage string) (*node.Handle, error) {
	ws.register(fs)
	fs.BoolVar(asJSON, "json", false, jsonUsage)
	if err := parse(fs, args); err != nil {
		return nil, err
	}
	return ws.attach(ctx, m, node.Options{LinkQuiet: true})
}

// hubLink adds the hub link to o when the workspace names a hub and this
// clone has joined it. A clone that has not joined works without a link
// (the hub URL is committed; the node identity is per machine).
func hubLink(ws *workspace.Workspace, o *node.Options) error {
	if ws.Config.Hub.URL == "" {
		return nil
	}
	id, err := hublink.LoadIdentity(ws.StateDir())
	if errors.Is(err, hublink.ErrNoIdentity) {
		o.Logger.Info("the workspace names a hub but this clone has not joined it; working without a link (clumsies hub join TOKEN)", "hub", ws.Config.Hub.URL)
		return nil
	}
	if err != nil {
		return err
	}
	link, err := hublink.New(id, ws.Config.Hub.URL)
	if err != nil {
		return err
	}
	o.Link, o.CheckpointKey = link, id.Key()
	return nil
}

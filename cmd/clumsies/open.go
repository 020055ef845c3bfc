package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"

	embeddednats "github.com/clumsies/clumsies/embedded-nats"
	"github.com/clumsies/clumsies/node"
	"github.com/clumsies/clumsies/workspace"
)

// wsFlags are the flags every workspace command shares.
type wsFlags struct {
	dir  string
	sync string
	log  string
}

func (f *wsFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.dir, "workspace", "", "workspace `DIR` (default: the nearest parent holding .clumsies/, else the current folder)")
	fs.StringVar(&f.sync, "sync", "always", "durability: `always` fsyncs every event before answering; interval fsyncs periodically (faster; an OS crash may lose recent events)")
	fs.StringVar(&f.log, "log-level", "warn", "stderr log `level`: debug, info, warn, error")
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

// workspace finds and reads the workspace.
func (f *wsFlags) workspace() (*workspace.Workspace, error) {
	dir, err := workspace.Resolve(f.dir)
	if err != nil {
		return nil, err
	}
	return workspace.Open(dir)
}

// open takes ownership of the workspace; with projections it also opens the
// read models and waits until they have caught up with the stream.
func (f *wsFlags) open(ctx context.Context, m *Main, projections bool) (*node.Node, error) {
	ws, err := f.workspace()
	if err != nil {
		return nil, err
	}
	mode, err := f.syncMode()
	if err != nil {
		return nil, err
	}
	logger, err := f.logger(m.Stderr)
	if err != nil {
		return nil, err
	}
	n, err := node.Open(ctx, ws, node.Options{Sync: mode, Logger: logger})
	if err != nil {
		return nil, err
	}
	if !projections {
		return n, nil
	}
	if err := n.StartProjections(ctx); err != nil {
		n.Close()
		return nil, err
	}
	if err := n.CatchUp(ctx); err != nil {
		n.Close()
		return nil, err
	}
	return n, nil
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

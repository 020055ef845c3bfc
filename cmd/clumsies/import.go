package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	embeddednats "github.com/clumsies/clumsies/embedded-nats"
	"github.com/clumsies/clumsies/node"
	"github.com/clumsies/clumsies/proof/ledger"
)

// ImportCommand stores an export into this workspace's ledger and
// rebuilds the read models from it.
type ImportCommand struct {
	m    *Main
	ws   wsFlags
	json bool
}

// Run implements command. The workspace must not be served meanwhile:
// import owns it for the whole run.
func (c *ImportCommand) Run(ctx context.Context, args []string) error {
	fs := c.m.newFlags("import", "import [--workspace DIR] [--json] FILE")
	c.ws.register(fs)
	fs.BoolVar(&c.json, "json", false, "print JSON")
	if err := parseArgs(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("%w: import takes one FILE (written by clumsies export), got %d arguments", errUsage, fs.NArg())
	}
	file := fs.Arg(0)
	f, err := os.Open(file)
	if err != nil {
		return fmt.Errorf("import: %w", err)
	}
	f.Close()
	ws, err := c.ws.workspace()
	if err != nil {
		return err
	}
	logger, err := c.ws.logger(c.m.Stderr)
	if err != nil {
		return err
	}
	// JetStream syncs periodically while importing and on close: an
	// import cut short goes on where it stopped when run again.
	n, err := node.Open(ctx, ws, node.Options{Sync: embeddednats.SyncInterval, Logger: logger})
	if errors.Is(err, embeddednats.ErrLocked) {
		return fmt.Errorf("import needs the workspace to itself: stop the clumsies processes serving %s, then run it again (%w)", ws.Root, err)
	}
	if err != nil {
		return err
	}
	defer n.Close()
	start := time.Now()
	open := func() (io.ReadCloser, error) { return os.Open(file) }
	progress := progressLine(c.m.Stderr, "importing")
	s, err := n.Import(ctx, open, progress)
	endProgress(c.m.Stderr, progress)
	if err != nil {
		return fmt.Errorf("import %s: %w", file, err)
	}
	imported := time.Since(start)
	progress = progressLine(c.m.Stderr, "replaying")
	digest, err := n.Rebuild(ctx, progress)
	endProgress(c.m.Stderr, progress)
	if err != nil {
		return fmt.Errorf("rebuild the read models after the import: %w", err)
	}
	if c.json {
		return json.NewEncoder(c.m.Stdout).Encode(struct {
			ledger.Summary
			ReadModels string  `json:"readModels"`
			Seconds    float64 `json:"seconds"`
		}{s, digest, time.Since(start).Seconds()})
	}
	if err := printSummary(c.m.Stdout, false, "imported", s, imported); err != nil {
		return err
	}
	_, err = fmt.Fprintf(c.m.Stdout, "read models rebuilt, digest %s\n", digest)
	return err
}

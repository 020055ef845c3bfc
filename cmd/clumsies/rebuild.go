package main

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/clumsies/clumsies/node"
)

// RebuildCommand drops the read models and replays the stream.
type RebuildCommand struct {
	m    *Main
	ws   wsFlags
	json bool
}

// Run implements command.
func (c *RebuildCommand) Run(ctx context.Context, args []string) error {
	fs := c.m.newFlags("rebuild", "rebuild [--workspace DIR] [--json]")
	c.ws.register(fs)
	fs.BoolVar(&c.json, "json", false, "print JSON")
	if err := parse(fs, args); err != nil {
		return err
	}
	// Repair: as the owner, do not open read models that may be unreadable;
	// as a client, have the owner rebuild.
	h, err := c.ws.attach(ctx, c.m, node.Options{Repair: true, LinkQuiet: true})
	if err != nil {
		return err
	}
	defer h.Close()
	progress := progressLine(c.m.Stderr, "replaying")
	start := time.Now()
	r, err := h.Rebuild(ctx, progress)
	endProgress(c.m.Stderr, progress)
	if err != nil {
		return err
	}
	took := time.Since(start)
	if c.json {
		return json.NewEncoder(c.m.Stdout).Encode(map[string]any{"events": r.Events, "digest": r.Digest, "seconds": took.Seconds()})
	}
	rate := float64(r.Events) / max(took.Seconds(), 1e-9)
	fmt.Fprintf(c.m.Stdout, "rebuilt read models from %d events in %s (%.0f events/s)\ndigest %s\n", r.Events, took.Round(time.Millisecond), rate, r.Digest)
	return nil
}

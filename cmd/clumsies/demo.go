package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/clumsies/clumsies/demo"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/stats"
)

// DemoCommand runs a scripted agent session through a real MCP client
// against a throw-away workspace and shows the ledger and usage it produced.
type DemoCommand struct {
	m    *Main
	keep bool
	json bool
}

// demoJSON is what `clumsies demo --json` prints: the calls the scripted
// agent made, the events they produced and the usage.
type demoJSON struct {
	WorkspaceID string         `json:"workspaceId"`
	Dir         string         `json:"dir,omitempty"` // with --keep
	Calls       []demo.Call    `json:"calls"`
	Events      []events.Event `json:"events"`
	Stats       stats.Report   `json:"stats"`
}

// Run implements command.
func (c *DemoCommand) Run(ctx context.Context, args []string) error {
	fs := c.m.newFlags("demo", "demo [--keep] [--json]")
	fs.BoolVar(&c.keep, "keep", false, "keep the throw-away workspace and print where it is")
	fs.BoolVar(&c.json, "json", false, "print {workspaceId, dir, calls, events, stats} instead of the walk-through")
	if err := parse(fs, args); err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "clumsies-demo-")
	if err != nil {
		return fmt.Errorf("create a demo workspace: %w", err)
	}
	if !c.keep {
		defer os.RemoveAll(dir)
	}
	d, err := demo.Open(ctx, dir)
	if err != nil {
		return err
	}
	defer d.Close()
	out := c.m.Stdout
	if c.json {
		out = io.Discard
	}
	fmt.Fprintf(out, "Demo workspace %s in %s\nPublished %d content files from .clumsies/ (META_PROMPT.md, rules/).\n\n", d.ID(), dir, d.Published)
	calls, err := d.Play(ctx, out, version())
	if err != nil {
		return err
	}
	evs, st, err := d.Ledger(ctx)
	if err != nil {
		return err
	}
	if c.json {
		j := demoJSON{WorkspaceID: d.ID(), Calls: calls, Events: evs, Stats: st}
		if c.keep {
			j.Dir = dir
		}
		enc := json.NewEncoder(c.m.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(j)
	}
	fmt.Fprintln(out, "\n== The ledger: one immutable event per tool call ==")
	for _, ev := range evs {
		if err := printEvent(out, ev); err != nil {
			return err
		}
	}
	fmt.Fprintln(out, "\n== Usage (clumsies stats) ==")
	if err := printStats(out, st); err != nil {
		return err
	}
	if c.keep {
		fmt.Fprintf(out, "\nKept the workspace in %s: look around with clumsies ui --workspace %s (or stats, events)\n", dir, dir)
	} else {
		fmt.Fprintf(out, "\nThe demo workspace is deleted as the demo ends; clumsies demo --keep keeps it to look around.\n")
	}
	return nil
}

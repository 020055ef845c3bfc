package main

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/node"
	"github.com/clumsies/clumsies/projections"
)

// PublishCommand publishes the content tree.
type PublishCommand struct {
	m    *Main
	ws   wsFlags
	json bool
}

// Run implements command.
func (c *PublishCommand) Run(ctx context.Context, args []string) error {
	fs := c.m.newFlags("publish", "publish [--workspace DIR] [--sync always|interval] [--json]")
	c.ws.registerSync(fs)
	h, err := c.m.attachData(ctx, fs, args, &c.ws, &c.json, "print the appended events as JSON lines (the bodies of published files left out)")
	if err != nil {
		return err
	}
	defer h.Close()
	evs, err := h.Publish(ctx)
	if err != nil {
		return err
	}
	for _, ev := range evs {
		if c.json {
			b, _ := json.Marshal(ev)
			fmt.Fprintln(c.m.Stdout, string(b))
			continue
		}
		p, _ := ev.Payload()
		switch d := p.(type) {
		case *events.PublishData:
			fmt.Fprintf(c.m.Stdout, "published %-8s %-40s %s\n", d.Kind, d.Path, d.ID)
		case *events.RemoveData:
			fmt.Fprintf(c.m.Stdout, "removed   %-8s %-40s %s\n", d.Kind, d.Path, d.ID)
		}
	}
	if err := c.warnShadowed(ctx, h); err != nil {
		return err
	}
	if !c.json {
		if len(evs) == 0 {
			fmt.Fprintln(c.m.Stdout, "Nothing to publish: the manifest matches the content tree.")
		} else {
			fmt.Fprintf(c.m.Stdout, "%d change(s) published.\n", len(evs))
		}
	}
	return nil
}

// warnShadowed says on stderr which repository files a team object at the
// same path hides: agents see the team object.
func (c *PublishCommand) warnShadowed(ctx context.Context, h *node.Handle) error {
	items, err := h.List(ctx, projections.Filter{})
	if err != nil {
		return fmt.Errorf("list the catalog: %w", err)
	}
	for _, it := range items {
		if it.Shadows != "" {
			fmt.Fprintf(c.m.Stderr, "clumsies: warning: %s %s is also in the team's catalog (%s, revision %d); agents see the team's, the repository's %s is shadowed\n",
				it.Kind, it.Path, it.ID, it.Revision, it.Shadows)
		}
	}
	return nil
}

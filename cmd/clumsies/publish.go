package main

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/clumsies/clumsies/events"
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
	if !c.json {
		if len(evs) == 0 {
			fmt.Fprintln(c.m.Stdout, "Nothing to publish: the manifest matches the content tree.")
		} else {
			fmt.Fprintf(c.m.Stdout, "%d change(s) published.\n", len(evs))
		}
	}
	return nil
}

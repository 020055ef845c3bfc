package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

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
	pub, err := h.Publish(ctx)
	if err != nil {
		return err
	}
	if err := c.print(ctx, h, pub); err != nil {
		return err
	}
	if err := c.warnShadowed(ctx, h); err != nil {
		return err
	}
	for _, u := range pub.Unfit {
		fmt.Fprintf(c.m.Stderr, "clumsies: warning: %s: %s; published, but a team's catalog (hub catalog push, hub review accept) refuses it as it is\n", u.Path, u.Reason)
	}
	if !c.json {
		switch {
		case pub.Count > 0:
			fmt.Fprintf(c.m.Stdout, "%d change(s) published.\n", pub.Count)
		case len(pub.Held) == 0:
			fmt.Fprintln(c.m.Stdout, "Nothing to publish: the manifest matches the content tree.")
		default:
			fmt.Fprintln(c.m.Stdout, "Nothing else to publish.")
		}
	}
	return c.held(pub.Held)
}

// exitHeld is publish's exit status when it published the tree but held
// files back: the rest of the tree is published, those files are not.
const exitHeld = 3

// held names each file the publish held back, with why, on stderr, and
// with --json as a line {"held": {"path", "reason"}} after the events;
// any makes the exit status exitHeld.
func (c *PublishCommand) held(held []node.HeldFile) error {
	for _, h := range held {
		fmt.Fprintln(c.m.Stderr, heldLine(h, "then publish again"))
		if c.json {
			b, err := json.Marshal(map[string]node.HeldFile{"held": h})
			if err != nil {
				return fmt.Errorf("encode a held file: %w", err)
			}
			fmt.Fprintln(c.m.Stdout, string(b))
		}
	}
	if len(held) > 0 {
		return errSilent{exitHeld}
	}
	return nil
}

// errPrinted ends the reading of the ledger once the last event of the
// publish is printed.
var errPrinted = errors.New("publish: every event printed")

// print writes one line per event the publish appended, read back from
// the ledger one at a time: a publish of any size is printed without
// holding its events. With --json the line is the envelope without the
// body of a published file (the ledger holds it) and without seq, as
// the events were appended.
func (c *PublishCommand) print(ctx context.Context, h *node.Handle, pub node.Published) error {
	if pub.Count == 0 {
		return nil
	}
	first, last := pub.Bounds()
	err := h.Replay(ctx, first, func(ev events.Event) error {
		if ev.Seq > last {
			return errPrinted
		}
		if !pub.Holds(ev.Seq) {
			return nil
		}
		if c.json {
			b, err := json.Marshal(appended(ev))
			if err != nil {
				return fmt.Errorf("encode event %d: %w", ev.Seq, err)
			}
			fmt.Fprintln(c.m.Stdout, string(b))
		} else {
			printChange(c.m.Stdout, ev)
		}
		if ev.Seq == last {
			return errPrinted
		}
		return nil
	})
	if err != nil && !errors.Is(err, errPrinted) {
		return fmt.Errorf("print the published events: %w", err)
	}
	return nil
}

// printChange writes the line of one catalog event.
func printChange(w io.Writer, ev events.Event) {
	p, _ := ev.Payload()
	switch d := p.(type) {
	case *events.PublishData:
		fmt.Fprintf(w, "published %-8s %-40s %s\n", d.Kind, d.Path, d.ID)
	case *events.RemoveData:
		fmt.Fprintf(w, "removed   %-8s %-40s %s\n", d.Kind, d.Path, d.ID)
	case *events.ReidData:
		fmt.Fprintf(w, "new id    %-8s %-40s %s (was %s)\n", d.Kind, d.Path, d.To, d.From)
	}
}

// appended returns ev as it was appended, without its sequence and with
// the body of a catalog.publish left out of its data.
func appended(ev events.Event) events.Event {
	ev.Seq = 0
	p, err := ev.Payload()
	d, ok := p.(*events.PublishData)
	if err != nil || !ok || d.Body == "" {
		return ev
	}
	d.Body = ""
	data, err := json.Marshal(d)
	if err != nil {
		return ev
	}
	ev.Data = data
	return ev
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

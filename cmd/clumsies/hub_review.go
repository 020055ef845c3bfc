package main

import (
	"context"
	"fmt"
	"text/tabwriter"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/hub/hubwire"
)

// HubReviewCommand dispatches `clumsies hub review list|show|accept|decline`.
type HubReviewCommand struct{ m *Main }

// Run implements command.
func (c *HubReviewCommand) Run(ctx context.Context, args []string) error {
	if len(args) > 0 && isHelp(args[0]) {
		fmt.Fprint(c.m.Stdout, `Usage: clumsies hub review <command> [flags]

The drafts members' agents submitted to the team catalogs, and their review.

  list [--team T] [--all]   the drafts in review (--all: the decided ones too)
  show ID                   one submitted draft with its body
  accept ID                 write it into the catalog if its object is still at the draft's base
  decline ID --reason R     decline it; the reason reaches the member's agent

Run 'clumsies hub review <command> -h' for its flags.
`)
		return nil
	}
	if len(args) == 0 {
		return fmt.Errorf("%w: hub review needs a command: list, show ID, accept ID or decline ID --reason R", errUsage)
	}
	r := &hubReview{m: c.m, op: args[0]}
	switch args[0] {
	case "list", "show", "accept", "decline":
		return r.run(ctx, args[1:])
	}
	return fmt.Errorf("%w: unknown hub review command %q (list, show, accept, decline)", errUsage, args[0])
}

// hubReview is one review command; they share their flags.
type hubReview struct {
	m      *Main
	op     string
	hub    hubFlags
	team   string
	all    bool
	reason string
	json   bool
}

func (c *hubReview) run(ctx context.Context, args []string) error {
	usage := map[string]string{
		"list":    "hub review list [--team T] [--all] [--hub DIR | --url URL --token T] [--json]",
		"show":    "hub review show ID [--hub DIR | --url URL --token T] [--json]",
		"accept":  "hub review accept ID [--hub DIR | --url URL --token T] [--json]",
		"decline": "hub review decline ID --reason R [--hub DIR | --url URL --token T] [--json]",
	}[c.op]
	fs := c.m.newFlags("hub review "+c.op, usage)
	if c.op == "list" {
		fs.StringVar(&c.team, "team", "", "only the drafts submitted to `team`'s catalog")
		fs.BoolVar(&c.all, "all", false, "also the drafts already accepted, declined or conflicted")
	}
	if c.op == "decline" {
		fs.StringVar(&c.reason, "reason", "", "why the draft is declined (the agent sees it)")
	}
	c.hub.register(fs)
	fs.BoolVar(&c.json, "json", false, "print JSON")
	max := 1
	if c.op == "list" {
		max = 0
	}
	pos, err := parsePositional(fs, args, max)
	if err != nil {
		return err
	}
	if c.op != "list" && len(pos) != 1 {
		return fmt.Errorf("%w: hub review %s needs the review's ID (see clumsies hub review list)", errUsage, c.op)
	}
	if c.op == "decline" && c.reason == "" {
		return fmt.Errorf("%w: hub review decline needs --reason R (the agent sees it)", errUsage)
	}
	cl, err := c.hub.client()
	if err != nil {
		return err
	}
	if c.op == "list" {
		rs, err := cl.Reviews(ctx, c.team, c.all)
		if err != nil {
			return err
		}
		if c.json {
			return printJSON(c.m.Stdout, rs)
		}
		tw := tabwriter.NewWriter(c.m.Stdout, 2, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tTEAM\tWORKSPACE\tMEMBER\tOP\tOBJECT\tPATH\tBASE\tSTATUS")
		for _, r := range rs {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%s\n", r.ID, r.Team, r.WorkspaceID, r.Member, r.Op, r.DraftID, r.Path, r.BaseRevision, r.Status)
		}
		return tw.Flush()
	}
	var r hubwire.Review
	switch c.op {
	case "show":
		r, err = cl.Review(ctx, pos[0])
	case "accept":
		r, err = cl.Accept(ctx, pos[0])
	case "decline":
		r, err = cl.Decline(ctx, pos[0], c.reason)
	}
	if err != nil {
		return err
	}
	if c.json {
		return printJSON(c.m.Stdout, r)
	}
	fmt.Fprintf(c.m.Stdout, "%s: %s of %s (%s) by %s of %s, base revision %d: %s\n", r.ID, r.Op, r.DraftID, r.Path, r.Member, r.WorkspaceID, r.BaseRevision, r.Status)
	if r.Description != "" {
		fmt.Fprintf(c.m.Stdout, "agent's note: %s\n", r.Description)
	}
	if r.Reason != "" {
		fmt.Fprintf(c.m.Stdout, "reason: %s\n", r.Reason)
	}
	if c.op == "show" && content.HasReferFooter(r.Body) {
		fmt.Fprintln(c.m.Stdout, "warning: the body ends with clumsies' refer-reminder footer (the lines memload appends after ---); accept refuses it: decline it with a reason")
	}
	if r.Revision != 0 {
		fmt.Fprintf(c.m.Stdout, "written as revision %d of team %s's catalog\n", r.Revision, r.Team)
	}
	if c.op == "show" && r.Body != "" {
		fmt.Fprintf(c.m.Stdout, "\n%s", r.Body)
	}
	return nil
}

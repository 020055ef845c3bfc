package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"text/tabwriter"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/hub/hubwire"
)

// HubCatalogCommand dispatches `clumsies hub catalog push|show|history`.
type HubCatalogCommand struct{ m *Main }

// Run implements command.
func (c *HubCatalogCommand) Run(ctx context.Context, args []string) error {
	cmds := map[string]command{
		"push":    &HubCatalogPushCommand{m: c.m},
		"show":    &HubCatalogShowCommand{m: c.m},
		"history": &HubCatalogHistoryCommand{m: c.m},
	}
	if len(args) > 0 && isHelp(args[0]) {
		fmt.Fprint(c.m.Stdout, `Usage: clumsies hub catalog <command> [flags]

A team's catalog on the hub: the rules, workflows and context its members'
workspaces receive.

  push DIR --team T      load or update the team's catalog from a content tree
  show [ID] --team T     the team's catalog, or one object with its body
  history ID --team T    the revisions of one object

Run 'clumsies hub catalog <command> -h' for its flags.
`)
		return nil
	}
	if len(args) == 0 {
		return fmt.Errorf("%w: hub catalog needs a command: push DIR, show [ID] or history ID (with --team T)", errUsage)
	}
	cmd, ok := cmds[args[0]]
	if !ok {
		return fmt.Errorf("%w: unknown hub catalog command %q (push, show, history)", errUsage, args[0])
	}
	return cmd.Run(ctx, args[1:])
}

// HubCatalogPushCommand loads a content tree into a team's catalog.
type HubCatalogPushCommand struct {
	m    *Main
	hub  hubFlags
	team string
	json bool
}

// Run implements command.
func (c *HubCatalogPushCommand) Run(ctx context.Context, args []string) error {
	fs := c.m.newFlags("hub catalog push", "hub catalog push DIR --team T [--hub DIR | --url URL --token T] [--json]")
	fs.StringVar(&c.team, "team", "", "the `team` whose catalog DIR becomes")
	c.hub.register(fs)
	fs.BoolVar(&c.json, "json", false, "print JSON")
	pos, err := parsePositional(fs, args, 1)
	if err != nil {
		return err
	}
	if len(pos) != 1 || c.team == "" {
		return fmt.Errorf("%w: hub catalog push needs the content tree's folder DIR (holding rules/ and context/) and --team T", errUsage)
	}
	root, err := contentRoot(pos[0])
	if err != nil {
		return err
	}
	files, err := content.Scan(root)
	if err != nil {
		return fmt.Errorf("read the content tree %s: %w; fix the file and push again (nothing was pushed)", root, err)
	}
	push := make([]hubwire.CatalogFile, 0, len(files))
	for _, f := range files {
		push = append(push, hubwire.CatalogFile{Source: f.Source, Body: f.Body})
	}
	cl, err := c.hub.client()
	if err != nil {
		return err
	}
	res, err := cl.PushCatalog(ctx, c.team, push)
	if err != nil {
		return err
	}
	if c.json {
		return printJSON(c.m.Stdout, res)
	}
	for _, p := range res.Published {
		fmt.Fprintf(c.m.Stdout, "published %-8s %-40s %s (revision %d)\n", p.Kind, p.Path, p.ID, p.Revision)
	}
	for _, p := range res.Removed {
		fmt.Fprintf(c.m.Stdout, "removed   %-8s %-40s %s\n", p.Kind, p.Path, p.ID)
	}
	for _, s := range res.Skipped {
		fmt.Fprintf(c.m.Stderr, "clumsies: %s skipped: a team catalog holds rules, workflows and context; the meta prompt is each workspace's own\n", s)
	}
	if len(res.Published)+len(res.Removed) == 0 {
		fmt.Fprintf(c.m.Stdout, "Nothing to push: team %s's catalog matches %s (revision %d).\n", c.team, root, res.Revision)
	} else {
		fmt.Fprintf(c.m.Stdout, "%d change(s) pushed; team %s's catalog is at revision %d.\n", len(res.Published)+len(res.Removed), c.team, res.Revision)
	}
	return nil
}

// contentRoot returns the content root DIR names: DIR itself, or the
// .clumsies folder of a workspace DIR.
func contentRoot(dir string) (string, error) {
	info, err := os.Stat(dir)
	if err != nil {
		return "", fmt.Errorf("%w: %s: %v", errUsage, dir, err)
	}
	if !info.IsDir() {
		return "", fmt.Errorf("%w: %s is not a folder; give the content tree's folder (holding rules/ and context/)", errUsage, dir)
	}
	for _, sub := range []string{"rules", "context"} {
		if _, err := os.Stat(filepath.Join(dir, sub)); err == nil {
			return dir, nil
		}
	}
	ws := filepath.Join(dir, ".clumsies")
	if _, err := os.Stat(ws); err == nil {
		return ws, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	return dir, nil
}

// HubCatalogShowCommand prints a team's manifest, or one object.
type HubCatalogShowCommand struct {
	m    *Main
	hub  hubFlags
	team string
	json bool
}

// Run implements command.
func (c *HubCatalogShowCommand) Run(ctx context.Context, args []string) error {
	fs := c.m.newFlags("hub catalog show", "hub catalog show [ID] --team T [--hub DIR | --url URL --token T] [--json]")
	fs.StringVar(&c.team, "team", "", "the `team` whose catalog to show")
	c.hub.register(fs)
	fs.BoolVar(&c.json, "json", false, "print JSON")
	pos, err := parsePositional(fs, args, 1)
	if err != nil {
		return err
	}
	if c.team == "" {
		return fmt.Errorf("%w: hub catalog show needs --team T", errUsage)
	}
	cl, err := c.hub.client()
	if err != nil {
		return err
	}
	if len(pos) == 1 {
		o, err := cl.TeamObject(ctx, c.team, pos[0])
		if err != nil {
			return err
		}
		if c.json {
			return printJSON(c.m.Stdout, o)
		}
		fmt.Fprintf(c.m.Stdout, "%s %s %s (revision %d, %s)\n\n%s", o.ID, o.Kind, o.Path, o.Revision, o.Hash, o.Body)
		return nil
	}
	m, err := cl.Manifest(ctx, c.team)
	if err != nil {
		return err
	}
	if c.json {
		return printJSON(c.m.Stdout, m)
	}
	fmt.Fprintf(c.m.Stdout, "team %s, catalog revision %d, %d object(s)\n", m.Team, m.Revision, len(m.Objects))
	tw := tabwriter.NewWriter(c.m.Stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tKIND\tPATH\tREVISION")
	for _, o := range m.Objects {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\n", o.ID, o.Kind, o.Path, o.Revision)
	}
	return tw.Flush()
}

// HubCatalogHistoryCommand prints the revisions of one team object.
type HubCatalogHistoryCommand struct {
	m    *Main
	hub  hubFlags
	team string
	json bool
}

// Run implements command.
func (c *HubCatalogHistoryCommand) Run(ctx context.Context, args []string) error {
	fs := c.m.newFlags("hub catalog history", "hub catalog history ID --team T [--hub DIR | --url URL --token T] [--json]")
	fs.StringVar(&c.team, "team", "", "the `team` whose catalog holds ID")
	c.hub.register(fs)
	fs.BoolVar(&c.json, "json", false, "print JSON")
	pos, err := parsePositional(fs, args, 1)
	if err != nil {
		return err
	}
	if len(pos) != 1 || c.team == "" {
		return fmt.Errorf("%w: hub catalog history needs the object's ID and --team T", errUsage)
	}
	cl, err := c.hub.client()
	if err != nil {
		return err
	}
	hs, err := cl.TeamHistory(ctx, c.team, pos[0])
	if err != nil {
		return err
	}
	if c.json {
		return printJSON(c.m.Stdout, hs)
	}
	tw := tabwriter.NewWriter(c.m.Stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "REVISION\tPATH\tHASH")
	for _, o := range hs {
		if o.Removed {
			fmt.Fprintf(tw, "%d\t(removed)\t\n", o.Revision)
			continue
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\n", o.Revision, o.Path, o.Hash)
	}
	return tw.Flush()
}

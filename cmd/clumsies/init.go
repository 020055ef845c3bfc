package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/clumsies/clumsies/agent/adapt"
	"github.com/clumsies/clumsies/workspace"
)

// InitCommand creates a workspace, and wires agent hosts to it on request.
type InitCommand struct {
	m      *Main
	dir    string
	hosts  string
	nested bool
	json   bool
}

// initJSON is what `clumsies init --json` prints.
type initJSON struct {
	WorkspaceID string      `json:"workspaceId"`
	Root        string      `json:"root"`
	ContentRoot string      `json:"contentRoot"`
	Created     []string    `json:"created"`           // files written, relative to root; empty when all were there
	Adapted     []adaptJSON `json:"adapted,omitempty"` // with --adapt: what each host got
}

// Run implements command.
func (c *InitCommand) Run(_ context.Context, args []string) error {
	fs := c.m.newFlags("init", "init [DIR | --workspace DIR] [--adapt HOST,...] [--nested] [--json]")
	fs.StringVar(&c.dir, "workspace", "", "the project `DIR` to create the workspace in, the same as giving DIR (default: the current folder)")
	fs.StringVar(&c.hosts, "adapt", "", "also wire these `HOST,...` to the new workspace: "+strings.Join(adapt.Names(), ", "))
	fs.BoolVar(&c.nested, "nested", false, "create the workspace even inside another workspace's folder")
	fs.BoolVar(&c.json, "json", false, "print {workspaceId, root, contentRoot, created, adapted}")
	if err := parseArgs(fs, args); err != nil {
		return err
	}
	var folder string
	if fs.NArg() > 0 {
		folder = fs.Arg(0)
		if fs.NArg() > 1 {
			return fmt.Errorf("%w: init takes at most one folder, got %q and %q", errUsage, folder, strings.Join(fs.Args()[1:], " "))
		}
	}
	dir := c.dir
	switch {
	case folder != "" && dir != "" && filepath.Clean(folder) != filepath.Clean(dir):
		return fmt.Errorf("%w: init got two folders, %s and --workspace %s; give one", errUsage, folder, dir)
	case folder != "":
		dir = folder
	case dir == "":
		dir = "."
	}
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		return fmt.Errorf("%w: init %s: a file, not a folder; pass the project folder", errUsage, dir)
	}
	var wire []*adapt.Host
	if c.hosts != "" {
		for _, name := range strings.Split(c.hosts, ",") {
			h, err := adapt.Lookup(strings.TrimSpace(name))
			if err != nil {
				return fmt.Errorf("%w: --adapt: %v", errUsage, err)
			}
			wire = append(wire, h)
		}
	}
	if err := c.checkNotNested(dir); err != nil {
		return err
	}
	ws, wrote, err := workspace.Init(dir)
	if err != nil {
		return err
	}
	var adapted []adaptJSON
	if len(wire) > 0 {
		home, err := os.UserHomeDir()
		if err != nil {
			return fmt.Errorf("find the home folder: %w", err)
		}
		for _, h := range wire {
			out, err := runAdapt(h, adapt.Project, adapt.Env{Root: ws.Root, Home: home}, false)
			if err != nil {
				return err
			}
			adapted = append(adapted, out)
		}
	}
	if c.json {
		if wrote == nil {
			wrote = []string{}
		}
		return json.NewEncoder(c.m.Stdout).Encode(initJSON{ws.ID(), ws.Root, ws.ContentRoot(), wrote, adapted})
	}
	if len(wrote) == 0 {
		fmt.Fprintf(c.m.Stdout, "Workspace %s already set up in %s; nothing to add.\n", ws.ID(), ws.Root)
	} else {
		fmt.Fprintf(c.m.Stdout, "Created workspace %s in %s\n", ws.ID(), ws.Root)
		for _, p := range wrote {
			fmt.Fprintf(c.m.Stdout, "  %s\n", p)
		}
	}
	if len(wire) == 0 {
		fmt.Fprintf(c.m.Stdout, "\nNext: edit the rules under %s, then connect your agent (clumsies adapt lists the hosts):\n  clumsies adapt claude-code\n", ws.ContentRoot())
		return nil
	}
	for i, h := range wire {
		fmt.Fprintln(c.m.Stdout)
		printAdapt(c.m.Stdout, h, adapted[i])
	}
	return nil
}

// checkNotNested refuses, unless --nested, to create a workspace inside
// another one: every clumsies command run below the outer workspace's
// folder already finds it, and a second one would split its ledger.
func (c *InitCommand) checkNotNested(dir string) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return fmt.Errorf("init %s: %w", dir, err)
	}
	outer, err := workspace.Find(abs)
	if errors.Is(err, workspace.ErrNotFound) || err == nil && outer == abs || c.nested {
		return nil
	}
	if err != nil {
		return err
	}
	return fmt.Errorf("%s is inside the workspace at %s, which clumsies already uses there; "+
		"run clumsies from that folder, or pass --nested to create a separate workspace in %s", abs, outer, abs)
}

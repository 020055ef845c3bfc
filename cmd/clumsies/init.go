package main

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/clumsies/clumsies/adapt"
	"github.com/clumsies/clumsies/workspace"
)

// InitCommand creates a workspace, and wires agent hosts to it on request.
type InitCommand struct{ m *Main }

// Run implements command.
func (c *InitCommand) Run(_ context.Context, args []string) error {
	fs := c.m.newFlags("init", "init [DIR] [--adapt HOST,...]")
	hosts := fs.String("adapt", "", "also wire these hosts to the new workspace, comma-separated: "+strings.Join(adapt.Names(), ", "))
	if err := parse(fs, args); err != nil {
		return err
	}
	dir := "."
	if fs.NArg() > 0 { // flags may follow the folder
		dir = fs.Arg(0)
		if err := parse(fs, fs.Args()[1:]); err != nil {
			return err
		}
		if fs.NArg() > 0 {
			return fmt.Errorf("%w: init takes at most one folder", errUsage)
		}
	}
	var wire []*adapt.Host
	if *hosts != "" {
		for _, name := range strings.Split(*hosts, ",") {
			h, err := adapt.Lookup(strings.TrimSpace(name))
			if err != nil {
				return fmt.Errorf("%w: --adapt: %v", errUsage, err)
			}
			wire = append(wire, h)
		}
	}
	ws, wrote, err := workspace.Init(dir)
	if err != nil {
		return err
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
	home, err := os.UserHomeDir()
	if err != nil {
		return fmt.Errorf("find the home folder: %w", err)
	}
	for _, h := range wire {
		out, err := runAdapt(h, adapt.Project, adapt.Env{Root: ws.Root, Home: home}, false)
		if err != nil {
			return err
		}
		fmt.Fprintln(c.m.Stdout)
		printAdapt(c.m.Stdout, h, out)
	}
	return nil
}

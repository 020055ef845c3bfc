package main

import (
	"context"
	"fmt"

	"github.com/clumsies/clumsies/workspace"
)

// InitCommand creates a workspace.
type InitCommand struct{ m *Main }

// Run implements command.
func (c *InitCommand) Run(_ context.Context, args []string) error {
	fs := c.m.newFlags("init", "init [DIR]")
	if err := parse(fs, args); err != nil {
		return err
	}
	dir := "."
	switch fs.NArg() {
	case 0:
	case 1:
		dir = fs.Arg(0)
	default:
		return fmt.Errorf("%w: init takes at most one folder", errUsage)
	}
	ws, wrote, err := workspace.Init(dir)
	if err != nil {
		return err
	}
	if len(wrote) == 0 {
		fmt.Fprintf(c.m.Stdout, "Workspace %s already set up in %s; nothing to add.\n", ws.ID(), ws.Root)
		return nil
	}
	fmt.Fprintf(c.m.Stdout, "Created workspace %s in %s\n", ws.ID(), ws.Root)
	for _, p := range wrote {
		fmt.Fprintf(c.m.Stdout, "  %s\n", p)
	}
	fmt.Fprintf(c.m.Stdout, "\nNext: edit the rules under %s, then connect your agent:\n  claude mcp add clumsies -- clumsies serve --workspace %s\n", ws.ContentRoot(), ws.Root)
	return nil
}

package main

import (
	"context"

	"github.com/clumsies/clumsies/workspace"
)

// hookSetup is what the hook benches share: how many runs and events, the
// bare Go binary that reads its stdin and exits (the baseline), and a
// workspace of that many events whose read models are caught up.
type hookSetup struct {
	runs, events int
	bare         string
	ws           *workspace.Workspace
}

// newHookSetup makes the setup of a hook bench, its workspace in a
// temporary folder named name.
func newHookSetup(ctx context.Context, b *bench, name string) (hookSetup, error) {
	s := hookSetup{runs: 40, events: 10_000}
	if b.quick {
		s.runs, s.events = 10, 1_000
	}
	var err error
	if s.bare, err = buildGo(b.tmp, "stdin", "./internal/bench/stdin"); err != nil {
		return s, err
	}
	if s.ws, _, err = workspace.Init(b.tempDir(name)); err != nil {
		return s, err
	}
	if err := fillWorkspace(ctx, s.ws, s.events); err != nil {
		return s, err
	}
	_, _, err = timeRun(b.bin, "stats", "--workspace", s.ws.Root) // catch the read models up
	return s, err
}

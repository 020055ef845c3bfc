package hooks

import (
	"context"
	"fmt"
	"slices"

	"github.com/clumsies/clumsies/agent/adapt"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/node"
	"github.com/clumsies/clumsies/treecheck"
	"github.com/clumsies/clumsies/workspace"
)

// postTool records what really changed during a tool call: the files of
// the working tree whose content changed since the last check, whatever
// the tool (an edit tool, a shell command, a script it ran), as one
// attest.file_edit attributed to the call, with the blob ids before and
// after, the paths no argument of the tool named, the rules in scope and
// those the session had not loaded, and the enforcement's own files among
// them. A file the tool named whose content did not change, or a tool the
// host reports as failed, records no edit of that file. Nothing changed,
// nothing is recorded. Then the pattern checks of the rules in scope run
// on the lines the call added; a change they find fault with is recorded
// (attest.check) and, in warn or block mode, the findings are the
// answer's context for the agent.
func postTool(ctx context.Context, r Request, in adapt.Input) (adapt.Answer, error) {
	tg := writeTargets(in)
	pl, err := findPlace(r.Dir, in.Dir, tg.files)
	if err != nil {
		return adapt.Answer{}, err
	}
	if in.SessionID == "" {
		return adapt.Answer{}, fmt.Errorf("the host's input names no session: nothing recorded")
	}
	named := workspacePaths(pl.tree, in.Dir, tg.files)
	if in.Failed {
		named = nil
	}
	hd, err := node.Attach(ctx, pl.ws, node.Options{AttachWait: attachWait, RetryFor: retryFor})
	if err != nil {
		return adapt.Answer{}, fmt.Errorf("open the workspace %s: %w", pl.ws.Root, err)
	}
	defer hd.Close()
	got, err := tree(ctx, hd, pl, node.TreeCheck, in.SessionID, in.ToolUseID, nil)
	if err != nil {
		return adapt.Answer{}, fmt.Errorf("check the working tree: %w", err)
	}
	data := editData(r.Host.Name, in.Tool, pl, got.Changes, named)
	if len(data.Paths) == 0 {
		return adapt.Answer{}, nil
	}
	data.Candidates, data.ToolUseID, data.Transcript, data.Manual = got.Candidates, in.ToolUseID, in.Transcript, manual(r.Host.Name)
	data.Republished = got.Republished
	if err := fillRules(ctx, hd, in.SessionID, &data); err != nil {
		return adapt.Answer{}, err
	}
	// The checks read the catalog before the edit is appended: the read
	// models the gate just caught up have nothing new to apply then.
	var run checkRun
	var checkErr error
	if len(data.Rules) > 0 {
		run, checkErr = callChecks(ctx, hd, pl, got.Changes)
	}
	if err := record(ctx, hd, in.SessionID, events.TypeFileEdit, data); err != nil {
		return adapt.Answer{}, err
	}
	if checkErr != nil {
		return adapt.Answer{}, fmt.Errorf("run the rules' checks: %w", checkErr)
	}
	return tellFindings(ctx, r, pl, hd, in, run, data)
}

// callChecks runs the pattern checks of the rules in scope on the lines
// a tool call added to the files it changed.
func callChecks(ctx context.Context, hd *node.Handle, pl place, changes []treecheck.Change) (checkRun, error) {
	var files []changed
	for _, c := range changes {
		if c.After != "" {
			files = append(files, changed{path: c.Path, before: c.Before, known: c.BeforeKnown})
		}
	}
	return runChecks(ctx, hd, pl, files, false)
}

// tellFindings records what the checks of a tool call found
// (attest.check) and, in warn or block mode, tells the agent. A clean
// change records nothing here (one durable append fewer on every edit):
// the stop's check of the session's whole change records every result.
func tellFindings(ctx context.Context, r Request, pl place, hd *node.Handle, in adapt.Input, run checkRun, d events.FileEditData) (adapt.Answer, error) {
	lines, more := run.findingLines()
	if len(lines) == 0 {
		return adapt.Answer{}, nil // a clean change: the stop's check of the whole change records the passes
	}
	cd := run.data(r.Host.Name, events.ViaPostTool, d.Unloaded)
	cd.ToolUseID, cd.Worktree = in.ToolUseID, pl.worktree
	if err := record(ctx, hd, in.SessionID, events.TypeCheck, cd); err != nil {
		return adapt.Answer{}, err
	}
	if pl.ws.Config.Enforce.Effective() == workspace.EnforceOff {
		return adapt.Answer{}, nil
	}
	return adapt.Answer{Context: adapt.CheckContext(lines, more)}, nil
}

// editData is the attest.file_edit of changes seen in pl's tree, named
// being the paths the tool's arguments named (workspace-relative, with
// events.OutsidePath for those outside): the changed files, and the
// outside marker when the tool named a file outside the workspace (which
// no check can see).
func editData(host, tool string, pl place, changes []treecheck.Change, named []string) events.FileEditData {
	d := events.FileEditData{Host: host, Tool: tool, Paths: []string{}, Rules: []string{},
		Hashes: map[string]string{}, Before: map[string]string{}, Worktree: pl.worktree}
	for _, c := range changes {
		d.Paths = append(d.Paths, c.Path)
		d.Hashes[c.Path] = c.After
		if c.BeforeKnown {
			d.Before[c.Path] = c.Before
		}
		if _, ok := slices.BinarySearch(named, c.Path); !ok {
			d.Unnamed = append(d.Unnamed, c.Path)
		}
	}
	if _, ok := slices.BinarySearch(named, events.OutsidePath); ok {
		d.Paths = append(d.Paths, events.OutsidePath)
	}
	slices.Sort(d.Paths)
	d.Protected = protected(pl.ws, d.Paths)
	return d
}

// fillRules sets d's rules in scope, and those session had not loaded.
func fillRules(ctx context.Context, hd *node.Handle, session string, d *events.FileEditData) error {
	paths := inside(d.Paths)
	if len(paths) == 0 {
		return nil
	}
	publishIfOwner(ctx, hd)
	g, err := hd.Gate(ctx, node.GateQuery{Session: session, Paths: paths})
	if err != nil {
		return fmt.Errorf("read the rules in scope: %w", err)
	}
	d.Rules = append([]string{}, g.Published...)
	for _, m := range g.Missing {
		if _, ok := slices.BinarySearch(d.Rules, m.Item.ID); ok {
			d.Unloaded = append(d.Unloaded, m.Item.ID)
		}
	}
	return nil
}

package hooks

import (
	"context"
	"fmt"

	"github.com/clumsies/clumsies/adapt"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/node"
)

// postTool records what a file-changing tool use touched: one
// attest.file_edit with the paths relative to the workspace and the rules
// in scope for them now.
func postTool(ctx context.Context, hd *node.Handle, h *adapt.Host, in adapt.Input) error {
	paths := workspacePaths(hd.Workspace().Root, in.Dir, in.Files)
	rules, err := rulesInScope(ctx, hd, paths)
	if err != nil {
		return err
	}
	return record(ctx, hd, in.SessionID, events.TypeFileEdit,
		events.FileEditData{Host: h.Name, Tool: in.Tool, Paths: paths, Rules: rules})
}

// rulesInScope returns the ids of the published rules and workflows whose
// paths match one of paths, sorted; none for paths all outside the
// workspace, without asking the owner.
func rulesInScope(ctx context.Context, hd *node.Handle, paths []string) ([]string, error) {
	paths = inside(paths)
	if len(paths) == 0 {
		return []string{}, nil
	}
	ids, err := hd.RulesInScope(ctx, paths)
	if err != nil {
		return nil, fmt.Errorf("read the rules in scope: %w", err)
	}
	return ids, nil
}

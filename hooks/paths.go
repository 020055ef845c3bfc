package hooks

import (
	"cmp"
	"path/filepath"
	"slices"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
)

// The file-changing hooks (pre-tool, post-tool) name the files as the
// host did; both read them through workspacePaths.

// workspacePaths returns paths (absolute, or relative to dir, the host's
// folder, else to the workspace root) relative to the workspace root, slash-separated, sorted
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
			p = filepath.Join(cmp.Or(dir, root), p)
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

// inside returns paths without the events.OutsidePath marker.
func inside(paths []string) []string {
	return slices.DeleteFunc(slices.Clone(paths), func(p string) bool { return p == events.OutsidePath })
}

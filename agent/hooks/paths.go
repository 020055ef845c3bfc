package hooks

import (
	"cmp"
	"os"
	"path/filepath"
	"slices"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
)

// The file-changing hooks (pre-tool, post-tool) name the files as the
// host did; both read them through workspacePaths.

// workspacePaths returns paths (absolute, or relative to dir, the host's
// folder, else to the workspace root) relative to the workspace root, slash-separated, sorted
// and each once, with events.OutsidePath for those outside it. Each path is
// resolved through symbolic links (its longest existing prefix) first, so
// a file reached through a link is named by its real place: in the
// workspace when the link points into it, outside when it points out. A
// root reached through a symbolic link matches paths named either way.
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
		p = realPath(p)
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

// realPath returns p (absolute, clean) with its longest existing prefix
// resolved through symbolic links; p itself when nothing of it exists.
func realPath(p string) string {
	p = filepath.Clean(p)
	cur, rest := p, ""
	for {
		if _, err := os.Lstat(cur); err == nil {
			if real, err := filepath.EvalSymlinks(cur); err == nil {
				return filepath.Join(real, rest)
			}
			return p
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return p
		}
		rest = filepath.Join(filepath.Base(cur), rest)
		cur = parent
	}
}

// inside returns paths without the events.OutsidePath marker.
func inside(paths []string) []string {
	return slices.DeleteFunc(slices.Clone(paths), func(p string) bool { return p == events.OutsidePath })
}

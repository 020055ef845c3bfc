package content

import (
	"path"
	"path/filepath"
	"strings"
)

// WorkspacePath returns p, a path an agent or a host names (relative to
// the workspace root, or absolute), as the workspace-relative,
// slash-separated, clean path that globs match, and false when p is empty
// or lies outside root (an absolute root). A relative p is read from the
// workspace root.
func WorkspacePath(root, p string) (string, bool) {
	if p == "" {
		return "", false
	}
	if filepath.IsAbs(p) {
		rel, err := filepath.Rel(filepath.Clean(root), filepath.Clean(p))
		if err != nil {
			return "", false
		}
		p = rel
	}
	p = path.Clean(filepath.ToSlash(p))
	if p == "." || p == ".." || strings.HasPrefix(p, "../") || strings.HasPrefix(p, "/") {
		return "", false
	}
	return p, true
}

// Matched returns those of paths (workspace-relative, slash-separated,
// as WorkspacePath gives them) that match at least one of globs, in their
// order. A rule's paths are its globs (ParsePaths): the rule is in scope
// for the paths Matched returns, and for none when it declares no globs.
func Matched(globs, paths []string) []string {
	var out []string
	for _, p := range paths {
		for _, g := range globs {
			if MatchGlob(g, p) {
				out = append(out, p)
				break
			}
		}
	}
	return out
}

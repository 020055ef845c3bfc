package hooks

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/clumsies/clumsies/agent/adapt"
	"github.com/clumsies/clumsies/workspace"
)

// protected returns the paths (workspace-relative, slash-separated) that
// are the enforcement's own files: everything under .clumsies/ but the
// state folder (config.toml, the ids, and the content tree where it lies
// there), the content tree wherever config.toml puts it, and every file
// `clumsies adapt` writes for any host in the repository (the MCP entries
// and the hooks' wiring). An agent that could change them could switch
// its own gate off.
func protected(ws *workspace.Workspace, paths []string) []string {
	own := wiring(ws.Root)
	var content []string // the content tree's parts, as prefixes
	if rel, err := filepath.Rel(ws.Root, ws.ContentRoot()); err == nil && filepath.IsLocal(rel) {
		base := ""
		if rel != "." {
			base = filepath.ToSlash(rel) + "/"
		}
		content = []string{base + "META_PROMPT.md", base + "rules/", base + "context/"}
	}
	var out []string
	for _, p := range paths {
		switch {
		case strings.HasPrefix(p, workspace.DirName+"/state/") || p == workspace.DirName+"/state":
		case strings.HasPrefix(p, workspace.DirName+"/"), slices.Contains(own, p),
			slices.ContainsFunc(content, func(c string) bool { return p == c || strings.HasSuffix(c, "/") && strings.HasPrefix(p, c) }):
			out = append(out, p)
		}
	}
	return out
}

// wiring returns the files adapt writes for every host in the repository
// at root, relative to it.
func wiring(root string) []string {
	var out []string
	for _, h := range adapt.Hosts() {
		for _, f := range h.Plan(adapt.Project, adapt.Env{Root: root}).Files {
			if rel, err := filepath.Rel(root, f.Path); err == nil && filepath.IsLocal(rel) {
				out = append(out, filepath.ToSlash(rel))
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

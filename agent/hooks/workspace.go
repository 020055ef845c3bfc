package hooks

import (
	"cmp"
	"errors"
	"os"
	"path/filepath"

	"github.com/clumsies/clumsies/workspace"
)

// place is where a hook acts: the workspace whose catalog and ledger it
// uses, and the working tree the host's files lie in: the workspace's
// own, or a linked git worktree of it.
type place struct {
	ws *workspace.Workspace
	// tree is the working tree's top folder: ws.Root, or a worktree's.
	tree string
	// worktree names a linked worktree (relative to the workspace root
	// where it lies inside it, else its folder's name); "" for ws.Root.
	worktree string
}

// findPlace finds where a hook acts: from the folder the hook's command
// names (flagDir), else the first file the tool names (so a host whose
// folder is outside the workspace, or in a nested one, still finds the
// workspace of the file), else the folder the host names, else its
// project folder variables, else the current folder. A linked git worktree
// of a workspace belongs to that workspace: its hooks use the main
// catalog and ledger, and name the worktree.
func findPlace(flagDir, hostDir string, files []string) (place, error) {
	starts := []string{flagDir}
	if flagDir == "" {
		starts = starts[:0]
		for _, f := range files {
			if filepath.IsAbs(f) {
				starts = append(starts, existingDir(f))
			}
		}
		starts = append(starts, cmp.Or(hostDir, os.Getenv("CLAUDE_PROJECT_DIR"), os.Getenv("GEMINI_PROJECT_DIR"), "."))
	}
	var first error
	for _, start := range starts {
		pl, err := placeAt(start)
		if err == nil {
			return pl, nil
		}
		if first == nil || !errors.Is(err, workspace.ErrNotFound) {
			first = err
		}
	}
	return place{}, first
}

// placeAt is the place of the folder start: the workspace at or above
// it, or, in a linked worktree of a workspace, that workspace.
func placeAt(start string) (place, error) {
	if abs, err := filepath.Abs(start); err == nil {
		start = abs
	}
	if top, main, ok := linkedWorktree(start); ok {
		if root, err := workspace.Find(main); err == nil {
			ws, err := workspace.Open(root)
			if err != nil {
				return place{}, err
			}
			name := filepath.Base(top)
			if rel, err := filepath.Rel(root, top); err == nil && filepath.IsLocal(rel) {
				name = filepath.ToSlash(rel)
			}
			return place{ws: ws, tree: top, worktree: name}, nil
		}
	}
	root, err := workspace.Find(start)
	if err != nil {
		return place{}, err
	}
	ws, err := workspace.Open(root)
	if err != nil {
		return place{}, err
	}
	return place{ws: ws, tree: ws.Root}, nil
}

// existingDir returns the nearest existing folder at or above the file f.
func existingDir(f string) string {
	for d := filepath.Dir(filepath.Clean(f)); ; d = filepath.Dir(d) {
		if fi, err := os.Stat(d); err == nil && fi.IsDir() {
			return d
		} else if !errors.Is(err, os.ErrNotExist) || filepath.Dir(d) == d {
			return d
		}
	}
}

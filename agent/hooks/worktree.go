package hooks

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
)

// linkedWorktree reports whether dir lies in a linked git worktree (made by
// `git worktree add`, as Claude Code's subagents with worktree isolation
// are): it returns the worktree's top folder and the top folder of the
// repository's main working tree. A main working tree, a submodule or no
// repository at all is not a linked worktree.
func linkedWorktree(dir string) (top, main string, ok bool) {
	for d := filepath.Clean(dir); ; {
		fi, err := os.Lstat(filepath.Join(d, ".git"))
		switch {
		case err == nil && fi.IsDir():
			return "", "", false // the main working tree
		case err == nil && fi.Mode().IsRegular():
			gitdir, ok := readGitdir(filepath.Join(d, ".git"))
			if !ok {
				return "", "", false
			}
			if !filepath.IsAbs(gitdir) {
				gitdir = filepath.Join(d, gitdir)
			}
			// A linked worktree's git folder holds commondir, the path of
			// the repository's own git folder; a submodule's does not.
			b, err := os.ReadFile(filepath.Join(gitdir, "commondir"))
			if err != nil {
				return "", "", false
			}
			common := strings.TrimSpace(string(b))
			if !filepath.IsAbs(common) {
				common = filepath.Join(gitdir, common)
			}
			common = filepath.Clean(common)
			if filepath.Base(common) != ".git" {
				return "", "", false // a bare repository's worktree: no main working tree
			}
			return d, filepath.Dir(common), true
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", "", false
		}
		d = parent
	}
}

// readGitdir reads the "gitdir: PATH" line of a .git file.
func readGitdir(file string) (string, bool) {
	f, err := os.Open(file)
	if err != nil {
		return "", false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	if sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "gitdir:"); ok {
			return strings.TrimSpace(v), true
		}
	}
	return "", false
}

package hooks

import (
	"cmp"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/clumsies/clumsies/agent/adapt"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/shellwrite"
)

// targets are the files a tool call is about to change, as far as its
// arguments tell.
type targets struct {
	// files are absolute, or relative to the host's folder.
	files []string
	// shell is set when some came from a shell command's writes.
	shell bool
	// opaque names the parts of a shell command whose writes cannot be
	// known: the working-tree check after it, and the stop gate, catch them.
	opaque []string
}

// writeTargets returns what in's tool is about to change: the files the
// host named, and the writes of its shell command read before it runs.
// A path under the home folder (~) is outside every workspace.
func writeTargets(in adapt.Input) targets {
	t := targets{files: slices.Clone(in.Files)}
	if strings.TrimSpace(in.Command) == "" {
		return t
	}
	r := shellwrite.Analyze(in.Command)
	if r.Err != nil {
		t.opaque = append(t.opaque, "a command that does not parse")
	}
	t.opaque = append(t.opaque, r.Opaque...)
	for _, w := range r.Writes {
		p := w.Path
		switch {
		case p == "~" || strings.HasPrefix(p, "~/"):
			p = events.OutsidePath
		case !filepath.IsAbs(p):
			p = filepath.Join(cmp.Or(in.Dir, "."), filepath.FromSlash(w.Dir), filepath.FromSlash(p))
		}
		t.files = append(t.files, p)
		t.shell = true
		if p != events.OutsidePath && (w.Glob || w.Tree) {
			t.files = append(t.files, onDisk(p, w.Glob, w.Tree)...)
		}
	}
	slices.Sort(t.files)
	t.files = slices.Compact(t.files)
	return t
}

// maxExpanded bounds the files a glob or a folder of a shell command
// expands to on disk.
const maxExpanded = 2000

// onDisk returns the existing files a shell target stands for: the files
// a glob matches, and every file under a folder the command may change as
// a whole (rm -r, cp -r, mv), at most maxExpanded. The target itself is
// gated too, so a pattern that matches nothing yet is still in scope of
// rules whose globs match it.
func onDisk(p string, glob, tree bool) []string {
	var out []string
	roots := []string{p}
	if glob {
		roots, _ = filepath.Glob(p)
		out = append(out, roots...)
	}
	if !tree {
		return out
	}
	for _, r := range roots {
		filepath.WalkDir(r, func(q string, d fs.DirEntry, err error) error {
			if err != nil || len(out) >= maxExpanded {
				return filepath.SkipAll
			}
			if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
				return filepath.SkipDir
			}
			if !d.IsDir() {
				out = append(out, q)
			}
			return nil
		})
	}
	return out
}

package gitrepo

import (
	"bytes"
	"context"
	"fmt"
	"strings"
)

// zeroID is the id git prints for the side of a change where the file
// does not exist.
const zeroID = "0000000000000000000000000000000000000000"

// Change is one file a commit (or a range) changed, by its path in the
// repository; Base and Blob are its blob ids before and after, "" where
// the file did not exist (added) or no longer does (deleted). A rename is
// a deletion and an addition.
type Change struct {
	Path string
	Base string
	Blob string
}

// Changes returns the files that differ between the trees of the commits
// base and head ("" base: the empty tree, for a root commit), sorted by
// path. Submodules (gitlinks) are left out.
func (r *Repo) Changes(ctx context.Context, base, head string) ([]Change, error) {
	args := []string{"diff-tree", "-r", "-z", "--no-renames", "--no-ext-diff"}
	if base == "" {
		args = append(args, "--root", head)
	} else {
		args = append(args, base, head)
	}
	out, err := r.git(ctx, nil, append(args, "--")...)
	if err != nil {
		return nil, fmt.Errorf("list the files changed in %s: %w", head, err)
	}
	return parseRaw(out)
}

// parseRaw reads diff-tree's -z raw output: ":<mode> <mode> <id> <id>
// <status>\0<path>\0" per file (a root commit's list starts with its id).
func parseRaw(out []byte) ([]Change, error) {
	var cs []Change
	fields := bytes.Split(bytes.TrimSuffix(out, []byte{0}), []byte{0})
	for i := 0; i < len(fields); i++ {
		head := string(fields[i])
		if !strings.HasPrefix(head, ":") {
			continue // the commit id diff-tree --root prints first
		}
		if i+1 >= len(fields) {
			return nil, fmt.Errorf("read git diff-tree: %q has no path", head)
		}
		f := strings.Fields(head[1:])
		i++
		if len(f) < 5 {
			return nil, fmt.Errorf("read git diff-tree: %q", head)
		}
		if f[0] == "160000" || f[1] == "160000" {
			continue // a submodule: its commit, not a file
		}
		c := Change{Path: string(fields[i]), Base: f[2], Blob: f[3]}
		if c.Base == zeroID {
			c.Base = ""
		}
		if c.Blob == zeroID {
			c.Blob = ""
		}
		cs = append(cs, c)
	}
	return cs, nil
}

// Blob returns the blob id of path in commit, "" when the commit has no
// such file.
func (r *Repo) Blob(ctx context.Context, commit, path string) (string, error) {
	out, err := r.git(ctx, nil, "ls-tree", "-z", commit, "--", path)
	if err != nil {
		return "", fmt.Errorf("read %s in %s: %w", path, commit, err)
	}
	// "<mode> blob <id>\t<path>\0"
	line := string(bytes.TrimSuffix(out, []byte{0}))
	meta, _, ok := strings.Cut(line, "\t")
	f := strings.Fields(meta)
	if !ok || len(f) != 3 || f[1] != "blob" {
		return "", nil
	}
	return f[2], nil
}

package repodraft

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
)

// file is a content file as it is on disk: absent, or its bytes.
type file struct {
	exists bool
	data   []byte
}

func (f file) hash() string {
	if !f.exists {
		return ""
	}
	return content.Hash(f.data)
}

// readFile reads the file at source path rel under root.
func readFile(root *os.Root, rel string) (file, error) {
	b, err := root.ReadFile(filepath.FromSlash(rel))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return file{}, nil
	case err != nil:
		return file{}, fmt.Errorf("read %s: %w", rel, err)
	}
	return file{exists: true, data: b}, nil
}

// state is where the content tree stands for a plan.
type state int

const (
	ready    state = iota // the files are as the draft's base: apply writes them
	done                  // the files already hold the draft: apply only records it
	conflict              // the files are neither: the draft is conflicted
)

// tree is what the files of a plan hold now, and what that means.
type tree struct {
	state  state
	at     file   // the file at Plan.Path
	to     file   // rename: the file at Plan.NewPath
	reason string // conflict: why, in words
}

// inspect reads the files of plan p under root. A path of p that passes
// through a symbolic link makes the draft conflicted, naming the link
// (see linkOn), and nothing is read through it.
func inspect(root *os.Root, p Plan) (tree, error) {
	var t tree
	var err error
	for _, rel := range []string{p.Path, p.NewPath} {
		if rel == "" {
			continue
		}
		if t.reason, err = linkOn(root, rel); err != nil || t.reason != "" {
			t.state = conflict
			return t, err
		}
	}
	if t.at, err = readFile(root, p.Path); err != nil {
		return t, err
	}
	if p.Op == events.DraftOpRename {
		if t.to, err = readFile(root, p.NewPath); err != nil {
			return t, err
		}
	}
	atBase := t.at.exists && t.at.hash() == p.BaseHash
	switch p.Op {
	case events.DraftOpCreate:
		switch {
		case !t.at.exists:
			t.state = ready
		case string(t.at.data) == p.Body:
			t.state = done
		default:
			t.state, t.reason = conflict, fmt.Sprintf("%s was created since the draft was made, with other content", p.Path)
		}
	case events.DraftOpUpdate:
		switch {
		case atBase:
			t.state = ready
		case t.at.exists && string(t.at.data) == p.Body:
			t.state = done
		case !t.at.exists:
			t.state, t.reason = conflict, fmt.Sprintf("%s was removed since the draft was made", p.Path)
		default:
			t.state, t.reason = conflict, fmt.Sprintf("%s changed since the draft was made (its hash is %s, the draft's base %s)", p.Path, t.at.hash(), p.BaseHash)
		}
	case events.DraftOpDelete:
		switch {
		case atBase:
			t.state = ready
		case !t.at.exists:
			t.state = done
		default:
			t.state, t.reason = conflict, fmt.Sprintf("%s changed since the draft was made (its hash is %s, the draft's base %s)", p.Path, t.at.hash(), p.BaseHash)
		}
	case events.DraftOpRename:
		switch {
		case atBase && !t.to.exists:
			t.state = ready
		case !t.at.exists && t.to.exists && t.to.hash() == p.BaseHash:
			t.state = done
		case t.to.exists:
			t.state, t.reason = conflict, fmt.Sprintf("%s, where the draft moves %s, is taken since the draft was made", p.NewPath, p.Path)
		case !t.at.exists:
			t.state, t.reason = conflict, fmt.Sprintf("%s was removed since the draft was made", p.Path)
		default:
			t.state, t.reason = conflict, fmt.Sprintf("%s changed since the draft was made (its hash is %s, the draft's base %s)", p.Path, t.at.hash(), p.BaseHash)
		}
	}
	return t, nil
}

// currentHash is the hash a conflict reports: of the file that is not as
// the draft expects.
func (t tree) currentHash(p Plan) string {
	if p.Op == events.DraftOpRename && t.to.exists {
		return t.to.hash()
	}
	return t.at.hash()
}

// write makes the files under root hold plan p. Every file is written
// whole to a hidden temporary file, synced and renamed over its path, so a
// reader (the content watch) sees the old file or the new one, never a
// part; a rename is one rename, so publishing sees the object move and
// keeps its id.
func write(root *os.Root, p Plan) error {
	switch p.Op {
	case events.DraftOpCreate, events.DraftOpUpdate:
		return writeAtomic(root, p.Path, []byte(p.Body))
	case events.DraftOpDelete:
		return remove(root, p.Path)
	case events.DraftOpRename:
		return move(root, p.Path, p.NewPath)
	}
	return fmt.Errorf("unknown operation %q", p.Op)
}

// undo puts the files of plan p back as tree t found them, after write.
func undo(root *os.Root, p Plan, t tree) error {
	switch p.Op {
	case events.DraftOpCreate:
		return remove(root, p.Path)
	case events.DraftOpUpdate, events.DraftOpDelete:
		return writeAtomic(root, p.Path, t.at.data)
	case events.DraftOpRename:
		return move(root, p.NewPath, p.Path)
	}
	return fmt.Errorf("unknown operation %q", p.Op)
}

// writeAtomic writes data to source path rel under root, creating its
// folders. Temporary files of earlier writes of rel that a crash left
// behind are removed first.
func writeAtomic(root *os.Root, rel string, data []byte) error {
	dst := filepath.FromSlash(rel)
	dir := filepath.Dir(dst)
	if err := root.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("write %s: %w", rel, err)
	}
	prefix := "." + filepath.Base(dst) + tmpMark
	removeStale(root, dir, prefix)
	tmp := filepath.Join(dir, prefix+randomSuffix())
	if err := writeSynced(root, tmp, data); err != nil {
		root.Remove(tmp)
		return fmt.Errorf("write %s: %w", rel, err)
	}
	if err := root.Rename(tmp, dst); err != nil {
		root.Remove(tmp)
		return fmt.Errorf("write %s: %w", rel, err)
	}
	return syncDir(root, dir)
}

// removeStale removes the files of folder dir under root whose names
// start with prefix: the temporary files earlier writes left behind.
func removeStale(root *os.Root, dir, prefix string) {
	d, err := root.Open(dir)
	if err != nil {
		return
	}
	names, _ := d.Readdirnames(-1)
	d.Close()
	for _, n := range names {
		if strings.HasPrefix(n, prefix) {
			root.Remove(filepath.Join(dir, n))
		}
	}
}

// tmpMark marks the hidden temporary files of writeAtomic: a file name
// that starts with "." is not content, so publishing never reads one.
const tmpMark = ".clumsies-tmp-"

func writeSynced(root *os.Root, name string, data []byte) error {
	f, err := root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func randomSuffix() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// remove removes source path rel under root (nothing to do when it is
// gone), then the folders it leaves empty below rules/ and context/.
func remove(root *os.Root, rel string) error {
	dst := filepath.FromSlash(rel)
	if err := root.Remove(dst); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove %s: %w", rel, err)
	}
	if err := syncDir(root, filepath.Dir(dst)); err != nil {
		return err
	}
	pruneEmpty(root, path.Dir(rel))
	return nil
}

// move renames source path from to to under root, creating the folders
// of to and pruning those from leaves empty.
func move(root *os.Root, from, to string) error {
	src := filepath.FromSlash(from)
	dst := filepath.FromSlash(to)
	if err := root.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return fmt.Errorf("move %s to %s: %w", from, to, err)
	}
	if err := root.Rename(src, dst); err != nil {
		return fmt.Errorf("move %s to %s: %w", from, to, err)
	}
	if err := syncDir(root, filepath.Dir(dst)); err != nil {
		return err
	}
	if err := syncDir(root, filepath.Dir(src)); err != nil {
		return err
	}
	pruneEmpty(root, path.Dir(from))
	return nil
}

// pruneEmpty removes folder rel under root and its parents while they are
// empty, stopping above the first level (rules/, context/ stay). A folder
// that is not empty, or cannot be removed, stops it: an empty folder left
// behind is harmless.
func pruneEmpty(root *os.Root, rel string) {
	for strings.Contains(rel, "/") {
		if root.Remove(filepath.FromSlash(rel)) != nil {
			return
		}
		rel = path.Dir(rel)
	}
}

// syncDir makes a rename or removal in dir durable.
func syncDir(root *os.Root, dir string) error {
	d, err := root.Open(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil // pruned: nothing left to sync
	}
	if err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	return nil
}

// openTree opens the content root for an apply. Every read and write of
// the apply goes through the returned os.Root, so that no source path
// reaches a file outside the root, even if a folder on it is replaced by
// a link while the apply runs. The root itself may be a symbolic link, as
// publishing allows.
func openTree(root string) (*os.Root, error) {
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, fmt.Errorf("open the content root: %w", err)
	}
	return r, nil
}

// linkOn returns why source path rel cannot be applied when it passes
// through a symbolic link under r (one of its folders, or rel itself), in
// words naming the first such link; "" when it passes through none. The
// parts of rel past a missing one are not looked at: apply creates them.
//
// Apply follows no link, inside the content root or out: publishing
// follows no link to a folder and refuses a link that leaves the root,
// and writing through a link to a file would change another file (the
// link's target) than the one the draft names.
func linkOn(r *os.Root, rel string) (string, error) {
	parts := strings.Split(rel, "/")
	for i := range parts {
		at := strings.Join(parts[:i+1], "/")
		info, err := r.Lstat(filepath.FromSlash(at))
		if errors.Is(err, fs.ErrNotExist) {
			return "", nil
		}
		if err != nil {
			return "", fmt.Errorf("look at %s: %w", at, err)
		}
		if info.Mode()&fs.ModeSymlink == 0 {
			continue
		}
		target, err := r.Readlink(filepath.FromSlash(at))
		if err != nil {
			return "", fmt.Errorf("read the link %s: %w", at, err)
		}
		if leaves(r.Name(), at, target) {
			return fmt.Sprintf("%s is a symbolic link to %s, outside the content root: apply writes only inside the content root (publishing refuses the link too); replace the link with the folder or file itself", at, target), nil
		}
		return fmt.Sprintf("%s is a symbolic link to %s: apply neither writes through a link nor replaces one; replace the link with the folder or file itself", at, target), nil
	}
	return "", nil
}

// leaves reports whether the link at source path rel under the folder
// root, which points to target, leads outside root. A link whose target
// is missing is judged by its words.
func leaves(root, rel, target string) bool {
	dir, err := filepath.EvalSymlinks(root)
	if err != nil {
		return false
	}
	to, err := filepath.EvalSymlinks(filepath.Join(dir, filepath.FromSlash(rel)))
	if err != nil {
		parent, err := filepath.EvalSymlinks(filepath.Join(dir, filepath.Dir(filepath.FromSlash(rel))))
		if err != nil {
			return false
		}
		to = target
		if !filepath.IsAbs(to) {
			to = filepath.Join(parent, to)
		}
	}
	inside, err := filepath.Rel(dir, to)
	return err != nil || inside == ".." || strings.HasPrefix(inside, ".."+string(filepath.Separator))
}

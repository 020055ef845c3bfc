package adapt

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Plan is what wiring one host in one scope writes: files and, for each,
// the entries clumsies owns in it.
type Plan struct {
	Host  string
	Scope Scope
	Files []File
	// Notes say what the host cannot do (an event it has no hook for) and
	// what the user must do besides.
	Notes []string
}

// File is one config file of a plan.
type File struct {
	// Path is the file's absolute path.
	Path string

	json     []jsonEntry // a JSON (JSONC) file's entries
	scaffold obj         // top-level members a new JSON file starts with
	toml     *tomlEntry  // a TOML file's block
	owned    []byte      // a file clumsies writes whole
}

// jsonEntry is a member at path (an object key path), or with ours set an
// element of the array at path.
type jsonEntry struct {
	path  []string
	value any
	ours  func(raw string) bool
}

// tomlEntry is the block of a TOML file, and the tables it defines.
type tomlEntry struct {
	host   string
	body   string
	tables []string
}

// Change is what happened to one file.
type Change struct {
	Path string `json:"path"`
	// Action is created, updated, unchanged, deleted (removing left
	// nothing of the user's, and adapt had created it) or absent.
	Action string `json:"action"`
	// Backup is where the file's previous bytes were saved.
	Backup string `json:"backup,omitempty"`
}

// BackupSuffix is added to a file's name for the copy of its previous
// bytes that adapt keeps before changing it.
const BackupSuffix = ".clumsies-backup"

// Apply writes the plan: it adds what is missing and changes nothing that
// is already in place. Every file is read and checked before any is
// written, so a file that cannot be read stops the whole plan.
func (p Plan) Apply() ([]Change, error) {
	return p.run(func(f File, old []byte, exists bool) ([]byte, bool, error) {
		b, err := f.add(old, exists)
		return b, false, err
	})
}

// Remove takes out what Apply adds, and nothing else. A file left with
// nothing of the user's is deleted.
func (p Plan) Remove() ([]Change, error) {
	return p.run(func(f File, old []byte, exists bool) ([]byte, bool, error) {
		if !exists {
			return nil, false, nil
		}
		return f.drop(old)
	})
}

type step func(f File, old []byte, exists bool) (out []byte, del bool, err error)

type pending struct {
	f      File
	old    []byte
	out    []byte
	exists bool
	del    bool
}

func (p Plan) run(do step) ([]Change, error) {
	var todo []pending
	for _, f := range p.Files {
		old, err := os.ReadFile(f.Path)
		exists := err == nil
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("read %s: %w", f.Path, err)
		}
		out, del, err := do(f, old, exists)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.Path, err)
		}
		todo = append(todo, pending{f: f, old: old, out: out, exists: exists, del: del})
	}
	changes := make([]Change, 0, len(todo))
	for _, t := range todo {
		c, err := t.write()
		if err != nil {
			return changes, err
		}
		changes = append(changes, c)
	}
	return changes, nil
}

// write carries out one file's change.
func (t pending) write() (Change, error) {
	c := Change{Path: t.f.Path}
	switch {
	case !t.exists && (t.out == nil || t.del):
		c.Action = "absent"
		return c, nil
	case t.exists && !t.del && string(t.out) == string(t.old):
		c.Action = "unchanged"
		return c, nil
	}
	// A file deleted holds nothing of the user's: no backup of it.
	if t.exists && !t.del {
		c.Backup = t.f.Path + BackupSuffix
		if err := writeBackup(t.f.Path, c.Backup, t.old); err != nil {
			return c, fmt.Errorf("back up %s: %w", t.f.Path, err)
		}
	}
	if t.del {
		c.Action = "deleted"
		path := t.f.Path
		if target, err := filepath.EvalSymlinks(path); err == nil && target != path {
			// Empty the link's target rather than break the link.
			c.Action = "updated"
			return c, writeAtomic(target, t.f.fresh())
		}
		if err := os.Remove(path); err != nil {
			return c, fmt.Errorf("delete %s: %w", t.f.Path, err)
		}
		t.f.dropOwnBackup()
		removeEmptyParents(filepath.Dir(path), 2)
		return c, nil
	}
	c.Action = "updated"
	if !t.exists {
		c.Action = "created"
	}
	if err := writeAtomic(t.f.Path, t.out); err != nil {
		return c, err
	}
	return c, nil
}

// dropOwnBackup removes the backup next to the file when it holds nothing
// of the user's (only what adapt wrote, as when adapt created the file and
// updated it later): once the file is gone it backs nothing up. A backup
// with anything of the user's stays.
func (f File) dropOwnBackup() {
	backup := f.Path + BackupSuffix
	b, err := os.ReadFile(backup)
	if err != nil {
		return
	}
	if f.nothingOfTheUsers(b) {
		os.Remove(backup)
	}
}

// nothingOfTheUsers reports whether b, a version of the file, holds only
// what adapt writes into it.
func (f File) nothingOfTheUsers(b []byte) bool {
	if len(trimSpace(b)) == 0 {
		return true
	}
	if f.owned != nil {
		return string(b) == string(f.owned)
	}
	_, del, err := f.drop(b)
	return err == nil && del
}

// writeBackup writes the previous bytes of file to backup, readable by no
// more people than file was (a config may hold tokens).
func writeBackup(file, backup string, b []byte) error {
	mode := fs.FileMode(0o600)
	if fi, err := os.Stat(file); err == nil {
		mode = fi.Mode().Perm()
	}
	os.Remove(backup) // an older backup may be more open; start afresh
	return writeFile(backup, b, mode)
}

// writeAtomic replaces path with b through a temporary file in the same
// folder, keeping the mode of the file it replaces. A symbolic link (a
// config kept in a dotfiles repository) stays a link: its target is
// replaced.
func writeAtomic(path string, b []byte) error {
	if target, err := filepath.EvalSymlinks(path); err == nil {
		path = target
	}
	mode := fs.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	return writeFile(path, b, mode)
}

// writeFile replaces path with b, with mode, through a temporary file.
func writeFile(path string, b []byte, mode fs.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("create the folder of %s: %w", path, err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Chmod(tmp.Name(), mode); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// add returns the file's bytes with every entry in place.
func (f File) add(old []byte, exists bool) ([]byte, error) {
	switch {
	case f.owned != nil:
		return f.owned, nil
	case f.toml != nil:
		out, _, err := putBlock(old, f.toml.host, f.toml.body, f.toml.tables)
		return out, err
	}
	if !exists || len(trimSpace(old)) == 0 {
		old = f.fresh()
	}
	d, err := newDoc(old)
	if err != nil {
		return nil, fmt.Errorf("%w; fix the file first, adapt edits only a file it can read", err)
	}
	for _, e := range f.json {
		var err error
		if e.ours != nil {
			_, err = d.putElement(e.path, e.value, e.ours)
		} else {
			_, err = d.setMember(e.path, e.value)
		}
		if err != nil {
			return nil, err
		}
	}
	return d.b, nil
}

// drop returns the file's bytes without the entries, and whether nothing
// but adapt's scaffold is left, so that the file can go.
func (f File) drop(old []byte) ([]byte, bool, error) {
	switch {
	case f.owned != nil:
		return nil, true, nil
	case f.toml != nil:
		out, found := dropBlock(old, f.toml.host)
		return out, found && len(trimSpace(out)) == 0, nil
	}
	d, err := newDoc(old)
	if err != nil {
		return nil, false, fmt.Errorf("%w; fix the file first, adapt edits only a file it can read", err)
	}
	changed := false
	for _, e := range f.json {
		var ch bool
		if e.ours != nil {
			ch, err = d.dropElements(e.path, e.ours)
		} else {
			ch, err = d.removeMember(e.path)
		}
		if err != nil {
			return nil, false, err
		}
		changed = changed || ch
	}
	if !changed {
		return old, false, nil
	}
	return d.b, string(d.b) == string(f.fresh()), nil
}

// fresh is what a JSON file of the plan starts from when it does not
// exist: its scaffold. Removing deletes a file that is left with exactly
// these bytes.
func (f File) fresh() []byte { return []byte(render(f.scaffold, "", "  ", false) + "\n") }

// State says how far a plan is in place.
type State string

// The states of a plan.
const (
	Wired    State = "wired"
	Partly   State = "partly"
	NotWired State = "no"
)

// State reads the plan's files and says whether its entries are all in
// place, some, or none. An unreadable file counts as not wired.
func (p Plan) State() State {
	have, want := 0, 0
	for _, f := range p.Files {
		old, err := os.ReadFile(f.Path)
		switch {
		case f.owned != nil:
			want++
			if err == nil && string(old) == string(f.owned) {
				have++
			}
		case f.toml != nil:
			want++
			if err == nil && hasBlock(old, f.toml.host, f.toml.body) {
				have++
			}
		default:
			want += len(f.json)
			if err != nil {
				continue
			}
			d, err := newDoc(old)
			if err != nil {
				continue
			}
			for _, e := range f.json {
				if (e.ours != nil && d.hasElement(e.path, e.value, e.ours)) || (e.ours == nil && d.hasMember(e.path, e.value)) {
					have++
				}
			}
		}
	}
	switch {
	case have == want:
		return Wired
	case have > 0:
		return Partly
	}
	return NotWired
}

func trimSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\n' || b[0] == '\t' || b[0] == '\r') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\n' || b[len(b)-1] == '\t' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}

// removeEmptyParents removes dir, then its parent, up to levels folders,
// while each is empty: the folders a host's config file was made in
// (.claude, .cursor, .github/hooks) go with the last file adapt takes out.
// A folder that holds anything stays, and so does every folder above it.
func removeEmptyParents(dir string, levels int) {
	for range levels {
		if os.Remove(dir) != nil { // not empty, or not ours to remove
			return
		}
		dir = filepath.Dir(dir)
	}
}

package workspace

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// DirName is the folder that marks a workspace.
const DirName = ".clumsies"

// ErrNotFound means no workspace was found where one was expected.
var ErrNotFound = errors.New("workspace: no clumsies workspace")

// Workspace is an initialised workspace.
type Workspace struct {
	Root   string // the project folder holding .clumsies/
	Config Config
}

// ID returns the workspace id.
func (w *Workspace) ID() string { return w.Config.WorkspaceID }

// MetaDir returns <root>/.clumsies.
func (w *Workspace) MetaDir() string { return filepath.Join(w.Root, DirName) }

// StateDir returns the folder holding the NATS store, pebble, the lock and
// the socket. It is never committed.
func (w *Workspace) StateDir() string { return filepath.Join(w.MetaDir(), "state") }

// ContentRoot returns the absolute folder holding META_PROMPT.md, rules/ and
// context/.
func (w *Workspace) ContentRoot() string {
	return filepath.Join(w.Root, filepath.FromSlash(w.Config.Content))
}

// Find returns the nearest folder at or above start that holds .clumsies/.
// It returns an error wrapping ErrNotFound when there is none.
func Find(start string) (string, error) {
	dir, err := filepath.Abs(start)
	if err != nil {
		return "", fmt.Errorf("find workspace from %s: %w", start, err)
	}
	for {
		if fi, err := os.Stat(filepath.Join(dir, DirName)); err == nil && fi.IsDir() {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("%w at or above %s; run `clumsies init` there", ErrNotFound, start)
		}
		dir = parent
	}
}

// Resolve returns the workspace folder for a --workspace flag value: the flag
// when given, else the nearest parent of the current folder holding
// .clumsies/, else the current folder.
func Resolve(flag string) (string, error) {
	if flag != "" {
		return filepath.Abs(flag)
	}
	cwd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("resolve workspace: %w", err)
	}
	if dir, err := Find(cwd); err == nil {
		return dir, nil
	}
	return cwd, nil
}

// Open reads the workspace rooted at root. It returns an error wrapping
// ErrNotFound, saying to run `clumsies init`, when root has no workspace.
func Open(root string) (*Workspace, error) {
	root, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("open workspace %s: %w", root, err)
	}
	path := filepath.Join(root, DirName, ConfigName)
	cfg, err := ReadConfig(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%w in %s (no %s); run `clumsies init %s`", ErrNotFound, root, filepath.Join(DirName, ConfigName), root)
	}
	if err != nil {
		return nil, err
	}
	w := &Workspace{Root: root, Config: cfg}
	if err := w.checkContentRoot(); err != nil {
		return nil, err
	}
	return w, nil
}

// checkContentRoot refuses a content root that resolves, through symlinks,
// to a folder outside the workspace. A content root that does not exist yet
// is fine.
func (w *Workspace) checkContentRoot() error {
	root, err := filepath.EvalSymlinks(w.Root)
	if err != nil {
		return nil
	}
	dir, err := filepath.EvalSymlinks(w.ContentRoot())
	if err != nil {
		return nil
	}
	if rel, err := filepath.Rel(root, dir); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return fmt.Errorf("open workspace %s: content %q resolves to %s, outside the workspace; point it at a folder inside the workspace", w.Root, w.Config.Content, dir)
	}
	return nil
}

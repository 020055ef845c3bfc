package workspace

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

//go:embed starter
var starter embed.FS

// gitignore keeps the state folder out of version control.
const gitignore = "# Runtime state: the event store, read models, lock and socket.\nstate/\n"

// Init creates a workspace in root: .clumsies/config.toml with a new
// workspace id, .clumsies/.gitignore, and starter content (a META_PROMPT.md,
// one rule and one workflow) in the content root. It never overwrites a
// file: on an existing workspace it only adds what is missing. It returns
// the paths it wrote, relative to root.
func Init(root string) (*Workspace, []string, error) {
	root, err := filepath.Abs(root)
	if err != nil {
		return nil, nil, fmt.Errorf("init workspace %s: %w", root, err)
	}
	var wrote []string
	cfgPath := filepath.Join(root, DirName, ConfigName)
	if _, err := os.Stat(cfgPath); errors.Is(err, os.ErrNotExist) {
		cfg := Config{WorkspaceID: NewWorkspaceID(), Name: nameOf(root), Content: DefaultContent}
		if err := writeNew(cfgPath, cfg.Encode()); err != nil {
			return nil, nil, err
		}
		wrote = append(wrote, filepath.Join(DirName, ConfigName))
	}
	ws, err := Open(root)
	if err != nil {
		return nil, nil, err
	}
	if ok, err := writeIfMissing(filepath.Join(ws.MetaDir(), ".gitignore"), []byte(gitignore)); err != nil {
		return nil, nil, err
	} else if ok {
		wrote = append(wrote, filepath.Join(DirName, ".gitignore"))
	}
	err = fs.WalkDir(starter, "starter", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		body, err := starter.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel("starter", filepath.FromSlash(p))
		dst := filepath.Join(ws.ContentRoot(), rel)
		ok, err := writeIfMissing(dst, body)
		if ok {
			shown, _ := filepath.Rel(root, dst)
			wrote = append(wrote, shown)
		}
		return err
	})
	if err != nil {
		return nil, nil, fmt.Errorf("init workspace %s: %w", root, err)
	}
	return ws, wrote, nil
}

func writeIfMissing(path string, body []byte) (bool, error) {
	if _, err := os.Stat(path); err == nil {
		return false, nil
	}
	return true, writeNew(path, body)
}

// writeNew writes a file that must not exist yet, through a temporary file
// and a rename so that a crash never leaves half a file.
func writeNew(path string, body []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("create %s: %w", filepath.Dir(path), err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(body); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Link(tmp.Name(), path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

package workspace

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/BurntSushi/toml"

	"github.com/clumsies/clumsies/events"
)

// ErrGone means the workspace's config.toml no longer names the workspace
// a process opened: .clumsies was removed, or removed and made again by
// `clumsies init` with a new workspace id.
var ErrGone = errors.New("workspace: config.toml no longer names this workspace")

// CheckCurrent returns an error wrapping ErrGone when the config file on
// disk is missing or names another workspace id than w's. A long-running
// process calls it before it takes the state folder again, so that it
// does not re-create the state folder of a workspace that is no more
// under a new one.
func (w *Workspace) CheckCurrent() error {
	file := filepath.Join(w.MetaDir(), ConfigName)
	var id struct {
		WorkspaceID string `toml:"workspace_id"`
	}
	_, err := toml.DecodeFile(file, &id)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("%w: %s is gone (was %s removed?)", ErrGone, file, DirName)
	case err != nil || !events.ValidWorkspaceID(id.WorkspaceID):
		// A file being written, or broken by hand: not proof that the
		// workspace is another one.
		return nil
	case id.WorkspaceID != w.ID():
		return fmt.Errorf("%w: %s names workspace %s now, not %s (made again by clumsies init?)", ErrGone, file, id.WorkspaceID, w.ID())
	}
	return nil
}

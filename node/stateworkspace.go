package node

import (
	"errors"
	"fmt"

	embeddednats "github.com/clumsies/clumsies/embedded-nats"
	"github.com/clumsies/clumsies/workspace"
)

// workspaceFile, in the state folder, names the workspace the folder
// belongs to. Two workspaces can share one state folder (a symlink, a
// copied folder): the second would open the first's store and rebuild the
// first's read models from its own, empty stream, and the first's verify
// would then report damage nobody did. A process refuses a state folder
// of another workspace instead.
const workspaceFile = "workspace.json"

// stateWorkspace is the content of workspaceFile.
type stateWorkspace struct {
	WorkspaceID string `json:"workspaceId"`
	Root        string `json:"root"` // where it was when the file was written, for the message
}

// ErrForeignState means the state folder belongs to another workspace.
var ErrForeignState = errors.New("node: the state folder belongs to another workspace")

// checkStateWorkspace returns an error wrapping ErrForeignState when ws's
// state folder records another workspace; nil when it records ws or
// nothing.
func checkStateWorkspace(ws *workspace.Workspace) error {
	_, err := stateWorkspaceOf(ws)
	return err
}

// claimState records ws in its state folder unless it is recorded
// already, after checkStateWorkspace. Only the lock holder calls it.
func claimState(ws *workspace.Workspace) error {
	ok, err := stateWorkspaceOf(ws)
	if err != nil || ok {
		return err
	}
	if err := writeStateFile(ws.StateDir(), workspaceFile, stateWorkspace{WorkspaceID: ws.ID(), Root: ws.Root}); err != nil {
		return fmt.Errorf("record the workspace in its state folder: %w", err)
	}
	return nil
}

// stateWorkspaceOf reads workspaceFile: ok when it records ws, an error
// wrapping ErrForeignState when it records another workspace.
func stateWorkspaceOf(ws *workspace.Workspace) (ok bool, err error) {
	var rec stateWorkspace
	found, err := readStateFile(ws.StateDir(), workspaceFile, &rec)
	if err != nil {
		return false, fmt.Errorf("read the workspace of the state folder: %w", err)
	}
	if !found {
		return false, nil
	}
	if rec.WorkspaceID != ws.ID() {
		if pid, locked, _ := embeddednats.Owner(ws.StateDir()); locked {
			// A process of the other workspace holds it (one started
			// before .clumsies was removed and made again): removing the
			// folder would not help while it runs.
			return false, fmt.Errorf("%w: %s is the state folder of workspace %s (%s), not of this one, %s, and process %d of that workspace holds it (%s): stop process %d (a clumsies serve or ui started before this workspace was made?), then remove %s",
				ErrForeignState, ws.StateDir(), rec.WorkspaceID, rec.Root, ws.ID(), pid, embeddednats.LockPath(ws.StateDir()), pid, ws.StateDir())
		}
		return false, fmt.Errorf("%w: %s is the state folder of workspace %s (%s), not of this one, %s (%s): two workspaces share one state folder (a symlink or a copy?); give this workspace a state folder of its own (remove the link, or the copy's .clumsies/state)",
			ErrForeignState, ws.StateDir(), rec.WorkspaceID, rec.Root, ws.ID(), ws.Root)
	}
	return true, nil
}

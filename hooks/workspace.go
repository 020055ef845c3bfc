package hooks

import (
	"cmp"
	"os"

	"github.com/clumsies/clumsies/workspace"
)

// findWorkspace finds the workspace: the flag, else the folder the host
// named, else its project folder variables, else the current folder.
func findWorkspace(flagDir, hostDir string) (*workspace.Workspace, error) {
	start := cmp.Or(flagDir, hostDir, os.Getenv("CLAUDE_PROJECT_DIR"), os.Getenv("GEMINI_PROJECT_DIR"), ".")
	root, err := workspace.Find(start)
	if err != nil {
		return nil, err
	}
	return workspace.Open(root)
}

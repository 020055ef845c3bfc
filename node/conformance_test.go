package node_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/events/eventstest"
	"github.com/clumsies/clumsies/workspace"
)

// suiteWorkspace is a workspace whose id is the one the conformance
// suite's events carry.
func suiteWorkspace(tb testing.TB) *workspace.Workspace {
	tb.Helper()
	dir := tb.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, workspace.DirName), 0o755); err != nil {
		tb.Fatal(err)
	}
	cfg := "workspace_id = \"" + eventstest.WorkspaceID + "\"\n"
	if err := os.WriteFile(filepath.Join(dir, workspace.DirName, workspace.ConfigName), []byte(cfg), 0o644); err != nil {
		tb.Fatal(err)
	}
	ws, err := workspace.Open(dir)
	if err != nil {
		tb.Fatal(err)
	}
	return ws
}

// TestHandle_LogConformance runs the events.Log conformance suite on a
// Handle that owns its workspace and on one that reaches the owner of
// another process's making through the socket (the non-owner path every
// second agent session takes).
func TestHandle_LogConformance(t *testing.T) {
	t.Run("Owner", func(t *testing.T) {
		eventstest.Run(t, func(t *testing.T) events.Log { return attach(t, suiteWorkspace(t)) })
	})
	t.Run("NonOwner", func(t *testing.T) {
		eventstest.Run(t, func(t *testing.T) events.Log {
			ws := suiteWorkspace(t)
			if owner := attach(t, ws); !owner.IsOwner() {
				t.Fatal("the first handle does not own the workspace")
			}
			h := attach(t, ws)
			if h.IsOwner() {
				t.Fatal("the second handle owns the workspace too")
			}
			return h
		})
	})
}

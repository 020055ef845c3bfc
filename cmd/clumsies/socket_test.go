//go:build linux

package main_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/node"
	"github.com/clumsies/clumsies/workspace"
)

// TestServe_PlantedSocketFolder: in a workspace whose socket path is too
// long, the socket goes to a private folder of the temporary folder.
// Another local user who made the folder every owner used to bind in
// (TMPDIR/clumsies-<uid>: open to all, with a file in it, and theirs when
// the test runs as root) denies nothing: the serves of the workspace
// reach their owner through a folder of their own.
func TestServe_PlantedSocketFolder(t *testing.T) {
	tmp, err := os.MkdirTemp("", "cs") // short: socket paths are limited to about 100 bytes
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(tmp) })
	planted := filepath.Join(tmp, "clumsies-"+strconv.Itoa(os.Getuid()))
	if err := os.Mkdir(planted, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(planted, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(planted, "x"), nil, 0o666); err != nil {
		t.Fatal(err)
	}
	if os.Getuid() == 0 {
		if err := os.Chown(planted, 65534, 65534); err != nil {
			t.Fatal(err)
		}
	}
	dir := filepath.Join(t.TempDir(), strings.Repeat("a-long-folder-name/", 6))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	mustRun(t, dir, "init")
	// The serves inherit the environment.
	t.Setenv("TMPDIR", tmp)
	t.Setenv("XDG_RUNTIME_DIR", "")
	c := cluster(t, dir, 2)
	for k, p := range c.Procs {
		if wf := workflowID(t, p.Client); wf == "" {
			t.Fatalf("process %d found no workflow", k)
		}
	}
	ws, err := workspace.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if sock := node.SocketPath(ws.StateDir()); !strings.HasPrefix(sock, tmp+"/") || strings.HasPrefix(sock, planted+"/") {
		t.Fatalf("owner socket %s: want it in a folder of its own under %s", sock, tmp)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
}

//go:build linux

package main_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestServe_PlantedSocketFolder: in a workspace whose socket path is too
// long, the socket goes to a per-user folder of the temporary folder.
// Another local user who made that folder first cannot get the agents of
// this one: serve refuses the folder and says why. (Giving the folder to
// another user needs root; the test skips otherwise.)
func TestServe_PlantedSocketFolder(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("giving a folder to another user needs root")
	}
	tmp, err := os.MkdirTemp("", "cs")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(tmp) })
	planted := filepath.Join(tmp, "clumsies-"+strconv.Itoa(os.Getuid()))
	if err := os.Mkdir(planted, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(planted, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), strings.Repeat("a-long-folder-name/", 6))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	mustRun(t, dir, "init")

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, "serve", "--workspace", dir)
	cmd.Env = append(cmd.Environ(), "TMPDIR="+tmp, "XDG_RUNTIME_DIR=")
	cmd.Stdin = strings.NewReader("")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err = cmd.Run()
	if err == nil || !strings.Contains(stderr.String(), planted+" belongs to user 65534") {
		t.Fatalf("serve with a planted socket folder: got %v, stderr %q; want a failure naming the folder and its owner", err, stderr.String())
	}
}

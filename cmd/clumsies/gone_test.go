package main_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// ownerSession starts serve on dir over stdio and sets a session up, so
// that it owns the workspace, open.
func ownerSession(tb *testing.T, dir string) (*exec.Cmd, *syncWriter) {
	tb.Helper()
	cmd, ask, _, stderr := stdioSession(tb, dir)
	ask(initLine)
	if res := ask(setupLine); res["error"] != nil {
		tb.Fatalf("memsetup: %v", res)
	}
	return cmd, stderr
}

// TestServe_StartingOver removes .clumsies under a running serve and
// makes the workspace again with `clumsies init`: the old serve, whose
// config.toml no longer names its workspace, exits saying why instead of
// taking the state folder again under the old id, and the new workspace
// works.
func TestServe_StartingOver(t *testing.T) {
	dir := newWorkspace(t)
	cmd, stderr := ownerSession(t, dir)
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	if err := os.RemoveAll(filepath.Join(dir, ".clumsies")); err != nil {
		t.Fatal(err)
	}
	mustRun(t, dir, "init")
	select {
	case <-exited:
	case <-time.After(60 * time.Second):
		t.Fatalf("serve still runs 60 s after its workspace was made again; stderr:\n%s", stderr.String())
	}
	if code := cmd.ProcessState.ExitCode(); code != 1 || !strings.Contains(stderr.String(), "no longer names this workspace") {
		t.Fatalf("serve: got exit %d, want 1 saying the workspace is gone; stderr:\n%s", code, stderr.String())
	}
	// Every command works on the new workspace.
	var st struct {
		WorkspaceID string `json:"workspaceId"`
	}
	if err := json.Unmarshal([]byte(mustRun(t, dir, "stats", "--json")), &st); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, ".clumsies", "config.toml"))
	if err != nil || !strings.Contains(string(b), fmt.Sprintf("%q", st.WorkspaceID)) {
		t.Fatalf("stats names workspace %s; config.toml: %s (%v)", st.WorkspaceID, b, err)
	}
}

// TestForeignState_NamesTheOwner gives a workspace a new id under a
// running serve that holds its state folder: a command refused for the
// shared state folder names the process holding it.
func TestForeignState_NamesTheOwner(t *testing.T) {
	dir := newWorkspace(t)
	cmd, _ := ownerSession(t, dir)
	file := filepath.Join(dir, ".clumsies", "config.toml")
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	other := regexp.MustCompile(`workspace_id = "ws-[0-9a-f]+"`).ReplaceAllString(string(b), `workspace_id = "ws-0123456789abcdef0123456789abcdef"`)
	if err := os.WriteFile(file, []byte(other), 0o644); err != nil {
		t.Fatal(err)
	}
	r := run(t, dir, "stats")
	want := fmt.Sprintf("process %d of that workspace holds it", cmd.Process.Pid)
	if r.code != 1 || !strings.Contains(r.stderr, want) || !strings.Contains(r.stderr, fmt.Sprintf("stop process %d", cmd.Process.Pid)) {
		t.Fatalf("stats: got exit %d, stderr %q; want exit 1 naming process %d", r.code, r.stderr, cmd.Process.Pid)
	}
}

package main_test

import (
	"strings"
	"testing"
	"time"
)

// TestHub_JoinWithOwnerRunning: a `clumsies ui` started before the clone
// joined owns the workspace and cannot link (its server's domain is set
// at its start). `hub join` and `hub status` name it and say to restart
// it, not to start an owner; once it is restarted the link comes up.
func TestHub_JoinWithOwnerRunning(t *testing.T) {
	hp := newHub(t)
	ws := newWorkspace(t)
	_, stop := startUI(t, ws, nil, "--addr", "127.0.0.1:0")
	token := strings.TrimSpace(mustRun(t, hp.dir, "hub", "invite", "--workspace", workspaceID(t, ws), "--team", "red", "--member", "ann"))
	out := mustRun(t, ws, "hub", "join", token)
	if !strings.Contains(out, "owned by `clumsies ui` (pid ") || !strings.Contains(out, "start it again") {
		t.Errorf("hub join with a ui running said:\n%s\nwant it to name `clumsies ui` and say to restart it", out)
	}
	out = mustRun(t, ws, "hub", "status")
	if !strings.Contains(out, "owned by `clumsies ui` (pid ") || !strings.Contains(out, "start it again") || strings.Contains(out, "Start one") {
		t.Errorf("hub status with the ui started before the join:\n%s\nwant it to name `clumsies ui` and say to restart it, not to start one", out)
	}

	stop()
	startUI(t, ws, nil, "--addr", "127.0.0.1:0")
	deadline := time.Now().Add(time.Minute)
	for !strings.Contains(out, "Link: up") && time.Now().Before(deadline) {
		time.Sleep(200 * time.Millisecond)
		out = mustRun(t, ws, "hub", "status")
	}
	if !strings.Contains(out, "Link: up") || strings.Contains(out, "start it again") {
		t.Errorf("hub status after the ui was restarted:\n%s\nwant the link up", out)
	}
}

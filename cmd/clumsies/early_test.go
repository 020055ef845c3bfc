package main_test

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// stdioSession starts `clumsies serve` on dir and returns a function that
// sends one JSON-RPC line and reads the next answer line.
func stdioSession(t *testing.T, dir string) (cmd *exec.Cmd, ask func(line string) map[string]any, stdin io.WriteCloser, stderr *syncWriter) {
	t.Helper()
	cmd = exec.Command(binary, "serve", "--workspace", dir)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr = &syncWriter{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	lines := bufio.NewReader(stdout)
	ask = func(line string) map[string]any {
		t.Helper()
		if _, err := io.WriteString(stdin, line+"\n"); err != nil {
			t.Fatal(err)
		}
		got := make(chan string, 1)
		go func() { l, _ := lines.ReadString('\n'); got <- l }()
		select {
		case l := <-got:
			var m map[string]any
			if err := json.Unmarshal([]byte(l), &m); err != nil {
				t.Fatalf("answer %q: %v", l, err)
			}
			return m
		case <-time.After(20 * time.Second):
			t.Fatalf("no answer to %s within 20 s", line)
			return nil
		}
	}
	return cmd, ask, stdin, stderr
}

const (
	initLine  = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	setupLine = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"memsetup","arguments":{"session_id":"early","knownHashes":{"META_PROMPT.md":""}}}}`
)

// TestServe_InitializeBeforeTheWorkspaceOpens holds the workspace's lock
// as a starting owner does, so serve cannot open the ledger yet:
// initialize is answered anyway, with the META_PROMPT as instructions, and
// the first tool call waits until the workspace opens.
func TestServe_InitializeBeforeTheWorkspaceOpens(t *testing.T) {
	dir := newWorkspace(t)
	mustRun(t, dir, "publish")
	lock, err := os.OpenFile(filepath.Join(dir, ".clumsies", "state", "owner.lock"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	_, ask, _, _ := stdioSession(t, dir)
	res := ask(initLine)
	instr, _ := res["result"].(map[string]any)["instructions"].(string)
	meta, _ := os.ReadFile(filepath.Join(dir, ".clumsies", "META_PROMPT.md"))
	if strings.TrimSpace(instr) != strings.TrimSpace(string(meta)) {
		t.Fatalf("initialize while the workspace is locked: instructions %q, want the META_PROMPT", instr)
	}
	fd, unlocked := int(lock.Fd()), make(chan struct{})
	time.AfterFunc(500*time.Millisecond, func() {
		syscall.Flock(fd, syscall.LOCK_UN)
		close(unlocked)
	})
	defer func() { <-unlocked }() // before the file closes
	res = ask(setupLine)
	if r, _ := res["result"].(map[string]any); r == nil || r["isError"] == true {
		t.Fatalf("memsetup once the workspace opened: %v", res)
	}
}

// TestServe_WorkspaceThatCannotOpen: initialize is answered, every call
// answers unavailable with the reason, and serve exits with the error
// when the client goes.
func TestServe_WorkspaceThatCannotOpen(t *testing.T) {
	dir := newWorkspace(t)
	state := filepath.Join(dir, ".clumsies", "state")
	os.RemoveAll(state)
	if err := os.WriteFile(state, []byte("not a folder"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd, ask, stdin, stderr := stdioSession(t, dir)
	if res := ask(initLine); res["result"] == nil {
		t.Fatalf("initialize: %v", res)
	}
	for range 2 {
		res := ask(setupLine)
		sc, _ := res["result"].(map[string]any)["structuredContent"].(map[string]any)
		if sc["code"] != "unavailable" || !strings.Contains(sc["error"].(string), "cannot be opened") {
			t.Fatalf("memsetup on a workspace that cannot open: %v, want unavailable with the reason", res)
		}
	}
	stdin.Close()
	err := cmd.Wait()
	if err == nil || !strings.Contains(stderr.String(), state) {
		t.Fatalf("serve exited with %v, stderr %q; want a failure naming %s", err, stderr.String(), state)
	}
}

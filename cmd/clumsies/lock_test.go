package main_test

import (
	"bufio"
	"context"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestCLI_SecondProcessLocked holds a workspace with `events --follow` and
// checks that another process gets a clear error naming the owner's pid and
// leaves the store intact.
func TestCLI_SecondProcessLocked(t *testing.T) {
	dir := newWorkspace(t)
	mustRun(t, dir, "publish")

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	owner := exec.CommandContext(ctx, binary, "events", "--follow")
	owner.Dir = dir
	stdout, err := owner.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := owner.Start(); err != nil {
		t.Fatal(err)
	}
	// The owner prints the three existing events once it holds the store.
	lines := bufio.NewScanner(stdout)
	for i := 0; i < 3; i++ {
		if !lines.Scan() {
			t.Fatalf("owner printed %d events, want 3", i)
		}
	}

	for _, args := range [][]string{{"stats"}, {"publish"}, {"events"}, {"rebuild"}} {
		r := run(t, dir, args...)
		want := fmt.Sprint(owner.Process.Pid)
		if r.code == 0 || !strings.Contains(r.stderr, "locked") || !strings.Contains(r.stderr, want) {
			t.Fatalf("clumsies %s while locked: got exit %d, stderr %q; want an error naming pid %s", args[0], r.code, r.stderr, want)
		}
	}

	cancel()
	owner.Wait()
	deadline := time.Now().Add(10 * time.Second)
	for {
		r := run(t, dir, "verify")
		if r.code == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("verify after the owner exited: exit %d, %s %s", r.code, r.stdout, r.stderr)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if evs := eventLines(t, dir); len(evs) != 3 {
		t.Fatalf("after the lock test: got %d events, want 3", len(evs))
	}
}

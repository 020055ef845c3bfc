package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/clumsies/clumsies/node"
	"github.com/clumsies/clumsies/workspace"
)

// benchHook times `clumsies hook user-prompt` from spawn to exit, as a host
// runs it on every prompt: with no process owning the workspace (the hook
// owns it for the append: lock, embedded server, read models) and with
// `clumsies serve` owning it (the hook appends through the socket). The
// baselines, in the same run: /bin/true and a bare Go binary that reads
// its stdin and exits.
func benchHook(ctx context.Context, b *bench) error {
	setup, err := newHookSetup(ctx, b, "hook")
	if err != nil {
		return err
	}
	runs, events, bare, ws := setup.runs, setup.events, setup.bare, setup.ws
	input, err := json.Marshal(map[string]any{"session_id": "bench-session", "cwd": ws.Root,
		"hook_event_name": "UserPromptSubmit", "prompt": "Add a retry to the payment client"})
	if err != nil {
		return err
	}
	hook := []string{b.bin, "hook", "user-prompt", "--host", "claude-code"}
	type row struct {
		name string
		p50  time.Duration
		p90  time.Duration
	}
	var rows []row
	measure := func(name string, argv ...string) error {
		ds, err := spawnTimes(ws.Root, input, runs, argv...)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		rows = append(rows, row{name, percentile(ds, 50), percentile(ds, 90)})
		return nil
	}
	if err := measure("/bin/true", "/bin/true"); err != nil {
		return err
	}
	if err := measure("bare Go binary reading stdin", bare); err != nil {
		return err
	}
	if err := measure("clumsies hook user-prompt, no owner (owns the workspace briefly)", hook...); err != nil {
		return err
	}
	owner, err := startOwner(ctx, b.bin, ws)
	if err != nil {
		return err
	}
	err = measure("clumsies hook user-prompt, `serve` owns the workspace (socket)", hook...)
	owner.stop()
	if err != nil {
		return err
	}
	b.printf("## Hook spawn to exit (issue: agent adapters)\n\n`clumsies hook user-prompt --host claude-code` with Claude Code's input on stdin, on a workspace of %d events, %d runs each; every run appends one durable (fsynced) event.\n\n", events, runs)
	b.printf("| command | p50 ms | p90 ms | p50 / bare Go |\n|---|---|---|---|\n")
	base := rows[1].p50
	for _, r := range rows {
		b.printf("| %s | %.1f | %.1f | %.1f |\n", r.name, ms(r.p50), ms(r.p90), float64(r.p50)/float64(base))
	}
	b.printf("\n")
	return nil
}

// spawnTimes runs argv n times in dir with stdin and returns each run's
// wall time from spawn to exit (timedRuns with nothing to do before).
func spawnTimes(dir string, stdin []byte, n int, argv ...string) ([]time.Duration, error) {
	return timedRuns(dir, stdin, n, nil, argv...)
}

// ownerProc is a `clumsies serve` that owns a workspace.
type ownerProc struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
}

// startOwner starts `clumsies serve` on ws and waits until its socket is up.
func startOwner(ctx context.Context, bin string, ws *workspace.Workspace) (*ownerProc, error) {
	cmd := exec.CommandContext(ctx, bin, "serve", "--workspace", ws.Root)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = io.Discard, os.Stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	o := &ownerProc{cmd: cmd, stdin: stdin}
	deadline := time.Now().Add(time.Minute)
	for {
		// A long state path's socket is where the owner records it.
		if _, err := os.Stat(node.SocketPath(ws.StateDir())); err == nil {
			return o, nil
		}
		if time.Now().After(deadline) {
			o.stop()
			return nil, fmt.Errorf("serve did not open its socket for %s", ws.StateDir())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func (o *ownerProc) stop() {
	o.stdin.Close()
	done := make(chan struct{})
	go func() { o.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		o.cmd.Process.Kill()
		<-done
	}
}

// buildGo builds the package pkg into dir/name.
func buildGo(dir, name, pkg string) (string, error) {
	out := filepath.Join(dir, name)
	cmd := exec.Command("go", "build", "-o", out, pkg)
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("build %s: %w", pkg, err)
	}
	return out, nil
}

// blockingOwner sets the workspace's gate to block ([enforce] mode) and
// starts `clumsies serve` owning it.
func blockingOwner(ctx context.Context, bin string, ws *workspace.Workspace) (*ownerProc, error) {
	if err := appendConfig(ws, "\n[enforce]\nmode = \"block\"\n"); err != nil {
		return nil, err
	}
	return startOwner(ctx, bin, ws)
}

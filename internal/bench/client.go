package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/clumsies/clumsies/mcp"
)

// proc is a server process driven over stdio by a real MCP client.
type proc struct {
	cmd *exec.Cmd
	cl  *mcp.Client
}

func start(ctx context.Context, bin string, args ...string) (*proc, error) {
	cmd := exec.Command(bin, args...)
	cmd.Stderr = os.Stderr
	cl, err := mcp.ConnectCommand(ctx, cmd)
	if err != nil {
		return nil, fmt.Errorf("start %s %v: %w", bin, args, err)
	}
	return &proc{cmd: cmd, cl: cl}, nil
}

func (p *proc) close() {
	p.cl.Close()
	done := make(chan struct{})
	go func() { p.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		p.cmd.Process.Kill()
	}
}

// call makes one call and fails on any error.
func (p *proc) call(ctx context.Context, tool string, args any) (map[string]any, error) {
	res, isErr, err := p.cl.Call(ctx, tool, args)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", tool, err)
	}
	if isErr {
		return nil, fmt.Errorf("%s: tool error %v", tool, res)
	}
	return res, nil
}

// timed makes n calls and returns their latencies. Each answer is read
// by the SDK's client as any client reads it, and not decoded again.
func (p *proc) timed(ctx context.Context, n int, tool string, args any) ([]time.Duration, error) {
	out := make([]time.Duration, 0, n)
	for i := 0; i < n; i++ {
		start := time.Now()
		isErr, err := p.cl.Do(ctx, tool, args)
		if err != nil {
			return nil, err
		}
		if isErr {
			return nil, fmt.Errorf("%s: tool error", tool)
		}
		out = append(out, time.Since(start))
	}
	return out, nil
}

// peakRSS reads a running process's peak resident set (VmHWM) in KiB.
func peakRSS(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb
		}
	}
	return 0
}

// setupSession binds a session and returns the first item of kind whose
// path starts with prefix.
func setupSession(ctx context.Context, p *proc, session string) error {
	_, err := p.call(ctx, "memsetup", memsetupArgs(session))
	return err
}

// memsetupArgs are the arguments of the memsetup that binds session.
func memsetupArgs(session string) map[string]any {
	return map[string]any{"session_id": session, "knownHashes": map[string]any{"META_PROMPT.md": ""}}
}

func firstID(ctx context.Context, p *proc, kind string) (string, error) {
	res, err := p.call(ctx, "memdisc", map[string]any{"kind": kind})
	if err != nil {
		return "", err
	}
	items, _ := res["items"].([]any)
	if len(items) == 0 {
		return "", fmt.Errorf("memdisc found no %s", kind)
	}
	return items[0].(map[string]any)["id"].(string), nil
}

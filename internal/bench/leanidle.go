package main

import (
	"context"
	"fmt"
	"time"
)

// leanIdleSettle is how long the idle servers run after their first
// answer before their CPU time is read: the owner's start (catching up,
// publishing the tree) is not idleness.
const leanIdleSettle = 10 * time.Second

// leanIdleResult is the CPU time each server took while idle, per minute.
type leanIdleResult struct {
	serve, echo, vs time.Duration
	over            time.Duration // how long they were watched
}

// leanIdle starts a serve on the lean workspace dir (1,000 rules), the
// echo server, and with vsDir set a serve of the -vs build on that one,
// binds a session on each serve, and reads the CPU time (user and system)
// each process takes over the same span of doing nothing: what every
// agent session's serve costs while its agent thinks.
func leanIdle(ctx context.Context, b *bench, dir, vsDir string) (leanIdleResult, error) {
	over := time.Minute
	if b.quick {
		over = 20 * time.Second
	}
	res := leanIdleResult{over: over}
	type watched struct {
		p   *proc
		out *time.Duration
	}
	var all []watched
	echo, err := start(ctx, b.echo)
	if err != nil {
		return res, err
	}
	defer echo.close()
	if _, err := echo.call(ctx, "echo", map[string]any{"text": "hello"}); err != nil {
		return res, err
	}
	all = append(all, watched{echo, &res.echo})
	for _, s := range []struct {
		bin, dir string
		out      *time.Duration
	}{{b.bin, dir, &res.serve}, {b.vs, vsDir, &res.vs}} {
		if s.dir == "" {
			continue
		}
		p, err := start(ctx, s.bin, "serve", "--workspace", s.dir, "--sync", "interval")
		if err != nil {
			return res, err
		}
		defer p.close()
		if err := setupSession(ctx, p, "bench-lean-idle"); err != nil {
			return res, err
		}
		all = append(all, watched{p, s.out})
	}
	select {
	case <-ctx.Done():
		return res, ctx.Err()
	case <-time.After(leanIdleSettle):
	}
	before := make([]time.Duration, len(all))
	for i, w := range all {
		before[i] = cpuTime(w.p.cmd.Process.Pid)
	}
	select {
	case <-ctx.Done():
		return res, ctx.Err()
	case <-time.After(over):
	}
	for i, w := range all {
		*w.out = time.Duration(float64(cpuTime(w.p.cmd.Process.Pid)-before[i]) * float64(time.Minute) / float64(over))
	}
	return res, nil
}

// idleRatio is a / b, or what b was when it is below the clock's tick
// (the echo server often takes none while idle).
func idleRatio(a, b time.Duration) string {
	if b <= 0 {
		return "the baseline took no tick (10 ms)"
	}
	return fmt.Sprintf("%.2fx", float64(a)/float64(b))
}

package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/clumsies/clumsies/workspace"
)

// benchLiveEdit measures how long an edit of a rule takes to reach an
// agent while `clumsies serve` runs (the owner watches the content tree),
// against the same edit followed by `clumsies publish` by hand, in the
// same run; and what the watch costs an idle serve in CPU.
func benchLiveEdit(ctx context.Context, b *bench) error {
	edits, idle := 20, 10*time.Second
	sizes := []int{0, 10_000}
	if b.quick {
		edits, idle, sizes = 5, 2*time.Second, []int{0, 1000}
	}
	b.printf("## Live content edits (issue: what a newcomer and outside clients hit)\n\n")
	b.printf("An edit of a rule while `clumsies serve` runs, until memload returns the new body (polled every 5 ms), %d edits; the baseline is the same edit followed by `clumsies publish` by hand, in the same run. Idle CPU: the serving process's user+system time over %s without calls.\n\n", edits, idle)
	b.printf("| tree | live p50 ms | live p99 ms | by hand p50 ms | live / by hand | idle CPU | target |\n|---|---|---|---|---|---|---|\n")
	for _, extra := range sizes {
		ws, _, err := workspace.Init(b.tempDir(fmt.Sprintf("liveedit-%d", extra)))
		if err != nil {
			return err
		}
		if err := writeRules(ws.ContentRoot(), extra); err != nil {
			return err
		}
		srv, err := start(ctx, b.bin, "serve", "--workspace", ws.Root)
		if err != nil {
			return err
		}
		live, hand, cpu, err := liveEditRound(ctx, b, srv, ws, edits, idle)
		srv.close()
		if err != nil {
			return err
		}
		p50, p99, h50 := percentile(live, 50), percentile(live, 99), percentile(hand, 50)
		b.printf("| starter + %d rules | %.0f | %.0f | %.0f | %.1f | %.2f%% | p99 < 1 s: %s |\n",
			extra, ms(p50), ms(p99), ms(h50), float64(p50)/float64(h50), cpu*100, verdict(p99 < time.Second))
	}
	b.printf("\n")
	return nil
}

func liveEditRound(ctx context.Context, b *bench, srv *proc, ws *workspace.Workspace, edits int, idle time.Duration) (live, hand []time.Duration, cpu float64, err error) {
	if err := setupSession(ctx, srv, "bench-liveedit"); err != nil {
		return nil, nil, 0, err
	}
	res, err := srv.call(ctx, "memdisc", map[string]any{"query": "ERRORS"})
	if err != nil {
		return nil, nil, 0, err
	}
	items, _ := res["items"].([]any)
	if len(items) == 0 {
		return nil, nil, 0, fmt.Errorf("memdisc found no ERRORS rule")
	}
	id := items[0].(map[string]any)["id"].(string)
	rule := filepath.Join(ws.ContentRoot(), "rules", "style", "ERRORS.md")
	edit := func(marker string) error {
		return os.WriteFile(rule, []byte("# Errors\n\n## Wrap\n\n- "+marker+"\n"), 0o644)
	}
	seen := func(start time.Time, marker string) (time.Duration, error) {
		for {
			res, err := srv.call(ctx, "memload", map[string]any{"ids": []string{id}, "knownHashes": map[string]any{id: ""}})
			if err != nil {
				return 0, err
			}
			if c, _ := res["items"].([]any)[0].(map[string]any)["content"].(string); strings.Contains(c, marker) {
				return time.Since(start), nil
			}
			if time.Since(start) > time.Minute {
				return 0, fmt.Errorf("the edit %q never reached the agent", marker)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	for i := 0; i < edits; i++ {
		marker := fmt.Sprintf("live edit %d", i)
		start := time.Now()
		if err := edit(marker); err != nil {
			return nil, nil, 0, err
		}
		d, err := seen(start, marker)
		if err != nil {
			return nil, nil, 0, err
		}
		live = append(live, d)
	}
	for i := 0; i < edits; i++ {
		marker := fmt.Sprintf("edit by hand %d", i)
		start := time.Now()
		if err := edit(marker); err != nil {
			return nil, nil, 0, err
		}
		if out, err := exec.CommandContext(ctx, b.bin, "publish", "--workspace", ws.Root).CombinedOutput(); err != nil {
			return nil, nil, 0, fmt.Errorf("clumsies publish: %v: %s", err, out)
		}
		d, err := seen(start, marker)
		if err != nil {
			return nil, nil, 0, err
		}
		hand = append(hand, d)
	}
	// Let the last edit's watch settle before measuring the idle cost.
	time.Sleep(time.Second)
	before := cpuTime(srv.cmd.Process.Pid)
	time.Sleep(idle)
	return live, hand, float64(cpuTime(srv.cmd.Process.Pid)-before) / float64(idle), nil
}

// cpuTime returns a process's user and system time so far, from
// /proc/<pid>/stat (in clock ticks of 10 ms).
func cpuTime(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	s := string(b)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(fields) < 13 {
		return 0
	}
	utime, _ := strconv.ParseInt(fields[11], 10, 64)
	stime, _ := strconv.ParseInt(fields[12], 10, 64)
	return time.Duration(utime+stime) * 10 * time.Millisecond
}

package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/clumsies/clumsies/node/nodetest"
	"github.com/clumsies/clumsies/workspace"
)

// benchConcurrency runs 1, 4 and 16 `clumsies serve` processes on one
// workspace (one owner, the rest through its socket), each an agent session
// calling memref in a loop, and reports the aggregate rate, the latency and
// the CPU per call of the serve processes against the single-session
// figures of the same run. In the default durability it repeats each round
// with every serve process under strace to count the fsyncs made while the
// calls ran (a separate round, so that tracing costs nothing to the rate).
func benchConcurrency(ctx context.Context, b *bench) error {
	dur := 3 * time.Second
	if b.quick {
		dur = time.Second
	}
	strace, _ := exec.LookPath("strace")
	b.printf("## Concurrent sessions (issue: many agents on one workspace)\n\nN `clumsies serve` stdio processes on one workspace, each its own agent session calling memref (one constraint, one event appended) back to back for %s. One process owns the store; the others append over its socket and ask the owner to sync. CPU per call: user+system time of all serve processes during the calls (from /proc), divided by the calls; the clients (this process) are left out. fsyncs per append: fsync and fdatasync calls of all serve processes during the calls (strace -f, in a repeat of the round), divided by the calls.\n\n", dur)
	b.printf("| sync | sessions | calls/s (all) | vs 1 session | p50 µs | p99 µs | CPU µs/call | vs 1 session | fsyncs/append | target |\n|---|---|---|---|---|---|---|---|---|---|\n")
	for _, mode := range []string{"always", "interval"} {
		var base concurrencyResult
		for _, n := range []int{1, 4, 16} {
			r, err := concurrencyRound(ctx, b, mode, n, dur, "")
			if err != nil {
				return err
			}
			if n == 1 {
				base = r
			}
			fsyncs, target := "", ""
			if mode == "always" && strace != "" {
				traced, err := concurrencyRound(ctx, b, mode, n, dur, strace)
				if err != nil {
					return err
				}
				fsyncs = fmt.Sprintf("%.3f", float64(traced.fsyncs)/float64(traced.calls))
				if n == 4 {
					perAppend := float64(traced.fsyncs) / float64(traced.calls)
					cpu := float64(r.cpuPerCall()) / float64(base.cpuPerCall())
					target = fmt.Sprintf("≤ 0.5 fsyncs/append and CPU ≤ 1.5x: %s", verdict(perAppend <= 0.5 && cpu <= 1.5))
				}
			}
			b.printf("| %s | %d | %.0f | %.2fx | %.0f | %.0f | %.0f | %.2fx | %s | %s |\n", mode, n, r.rate(), r.rate()/base.rate(),
				us(r.p50), us(r.p99), us(r.cpuPerCall()), float64(r.cpuPerCall())/float64(base.cpuPerCall()), fsyncs, target)
		}
	}
	b.printf("\n")
	return nil
}

// concurrencyResult is one round of benchConcurrency.
type concurrencyResult struct {
	calls    int
	took     time.Duration
	p50, p99 time.Duration
	cpu      time.Duration // of the serve processes during the calls
	fsyncs   int           // during the calls, when traced
}

func (r concurrencyResult) rate() float64 { return float64(r.calls) / r.took.Seconds() }

func (r concurrencyResult) cpuPerCall() time.Duration {
	return r.cpu / time.Duration(max(r.calls, 1))
}

// concurrencyRound runs one round; with strace set, every serve process
// runs under it and the result counts their fsyncs during the calls.
func concurrencyRound(ctx context.Context, b *bench, mode string, n int, dur time.Duration, strace string) (concurrencyResult, error) {
	var r concurrencyResult
	ws, _, err := workspace.Init(b.tempDir("concurrency"))
	if err != nil {
		return r, err
	}
	bin, traces := b.bin, ""
	if strace != "" {
		if bin, traces, err = tracedServe(b, strace); err != nil {
			return r, err
		}
	}
	c, err := nodetest.Start(ctx, bin, ws.Root, n, "--sync", mode)
	if err != nil {
		return r, err
	}
	defer c.Close()
	first := &proc{cmd: c.Procs[0].Cmd, cl: c.Procs[0].Client}
	wf, err := firstID(ctx, first, "workflow")
	if err != nil {
		return r, err
	}
	args := map[string]any{"refs": []any{map[string]any{"ruleId": wf, "constraintId": "Steps/1"}}}
	var (
		mu   sync.Mutex
		lats []time.Duration
		errs []error
		wg   sync.WaitGroup
	)
	cpuBefore := clusterCPU(c)
	start := time.Now()
	deadline := start.Add(dur)
	for _, p := range c.Procs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			pr := &proc{cmd: p.Cmd, cl: p.Client}
			var mine []time.Duration
			for time.Now().Before(deadline) {
				t0 := time.Now()
				if _, err := pr.call(ctx, "memref", args); err != nil {
					mu.Lock()
					errs = append(errs, err)
					mu.Unlock()
					return
				}
				mine = append(mine, time.Since(t0))
			}
			mu.Lock()
			lats = append(lats, mine...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	r.took = time.Since(start)
	r.cpu = clusterCPU(c) - cpuBefore
	if len(errs) > 0 {
		return r, fmt.Errorf("%d sessions: %w", n, errs[0])
	}
	r.calls, r.p50, r.p99 = len(lats), percentile(lats, 50), percentile(lats, 99)
	if strace != "" {
		if err := c.Close(); err != nil {
			return r, err
		}
		if r.fsyncs, err = countFsyncs(traces, start, start.Add(r.took)); err != nil {
			return r, err
		}
	}
	return r, nil
}

// clusterCPU sums the user and system time of the cluster's processes (of
// their whole tree: under strace the serve process is strace's child).
func clusterCPU(c *nodetest.Cluster) time.Duration {
	var sum time.Duration
	for _, p := range c.Procs {
		sum += treeCPU(p.Pid())
	}
	return sum
}

// treeCPU returns the CPU time of pid and of its live descendants.
func treeCPU(pid int) time.Duration {
	sum := cpuTime(pid)
	kids, _ := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/children", pid, pid))
	for _, f := range strings.Fields(string(kids)) {
		if k, err := strconv.Atoi(f); err == nil {
			sum += treeCPU(k)
		}
	}
	return sum
}

// tracedServe writes a wrapper that runs the clumsies binary under strace,
// recording every fsync and fdatasync with its time, one file per process
// in the returned folder.
func tracedServe(b *bench, strace string) (bin, traces string, err error) {
	dir := b.tempDir("strace")
	traces = filepath.Join(dir, "traces")
	if err := os.MkdirAll(traces, 0o755); err != nil {
		return "", "", err
	}
	bin = filepath.Join(dir, "clumsies")
	script := fmt.Sprintf("#!/bin/sh\nexec %s -f -qq -y --seccomp-bpf -ttt -e trace=fsync,fdatasync -o %s/trace.$$ %s \"$@\"\n", strace, traces, b.bin)
	return bin, traces, os.WriteFile(bin, []byte(script), 0o755)
}

// countFsyncs counts the fsync and fdatasync calls that started between
// from and to in the traces of a folder ("<pid> <epoch seconds> fsync(...").
func countFsyncs(traces string, from, to time.Time) (int, error) {
	files, err := filepath.Glob(filepath.Join(traces, "trace.*"))
	if err != nil || len(files) == 0 {
		return 0, fmt.Errorf("no strace output in %s: %v", traces, err)
	}
	lo, hi := float64(from.UnixMicro())/1e6, float64(to.UnixMicro())/1e6
	n := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return 0, err
		}
		for _, line := range strings.Split(string(data), "\n") {
			fields := strings.Fields(line)
			if len(fields) < 3 || strings.HasPrefix(fields[2], "<...") {
				continue // a call resumed: counted where it started
			}
			if !strings.HasPrefix(fields[2], "fsync(") && !strings.HasPrefix(fields[2], "fdatasync(") {
				continue
			}
			ts, err := strconv.ParseFloat(fields[1], 64)
			if err == nil && ts >= lo && ts <= hi {
				n++
			}
		}
	}
	return n, nil
}

// benchTakeover kills the owning process ten times while three others keep
// calling, and reports the time from the kill to a survivor's first answer.
func benchTakeover(ctx context.Context, b *bench) error {
	kills := 10
	if b.quick {
		kills = 3
	}
	ws, _, err := workspace.Init(b.tempDir("takeover"))
	if err != nil {
		return err
	}
	c, err := nodetest.Start(ctx, b.bin, ws.Root, 4)
	if err != nil {
		return err
	}
	defer c.Close()
	var ds []time.Duration
	for i := 0; i < kills; i++ {
		d, err := c.Takeover(ctx)
		if err != nil {
			return fmt.Errorf("kill %d: %w", i+1, err)
		}
		ds = append(ds, d)
	}
	b.printf("## Owner takeover (issue: many agents on one workspace)\n\nFour `clumsies serve` processes; the owner is killed with SIGKILL while the other three keep calling memdisc; time from the kill to the first answer a survivor gets to a call made after the owner was gone. %d kills (each killed process is replaced).\n\n", kills)
	b.printf("| p50 ms | min ms | max ms | target |\n|---|---|---|---|\n| %.0f | %.0f | %.0f | within a second: %s |\n\n",
		ms(percentile(ds, 50)), ms(percentile(ds, 0)), ms(percentile(ds, 100)), verdict(percentile(ds, 50) < time.Second))
	return nil
}

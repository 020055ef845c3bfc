package main

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/clumsies/clumsies/node/nodetest"
	"github.com/clumsies/clumsies/workspace"
)

// benchConcurrency runs 1, 4 and 16 `clumsies serve` processes on one
// workspace (one owner, the rest through its socket), each an agent session
// calling memref in a loop, and reports the aggregate rate and the p99
// latency against the single-session figure of the same run.
func benchConcurrency(ctx context.Context, b *bench) error {
	dur := 3 * time.Second
	if b.quick {
		dur = time.Second
	}
	b.printf("## Concurrent sessions (issue: many agents on one workspace)\n\nN `clumsies serve` stdio processes on one workspace, each its own agent session calling memref (one constraint) back to back for %s. One process owns the store; the others append over its socket.\n\n", dur)
	b.printf("| sync | sessions | calls/s (all) | vs 1 session | p50 µs | p99 µs |\n|---|---|---|---|---|---|\n")
	for _, mode := range []string{"always", "interval"} {
		var base float64
		for _, n := range []int{1, 4, 16} {
			rate, p50, p99, err := concurrencyRound(ctx, b, mode, n, dur)
			if err != nil {
				return err
			}
			if n == 1 {
				base = rate
			}
			b.printf("| %s | %d | %.0f | %.2fx | %.0f | %.0f |\n", mode, n, rate, rate/base, us(p50), us(p99))
		}
	}
	b.printf("\n")
	return nil
}

func concurrencyRound(ctx context.Context, b *bench, mode string, n int, dur time.Duration) (float64, time.Duration, time.Duration, error) {
	ws, _, err := workspace.Init(b.tempDir("concurrency"))
	if err != nil {
		return 0, 0, 0, err
	}
	c, err := nodetest.Start(ctx, b.bin, ws.Root, n, "--sync", mode)
	if err != nil {
		return 0, 0, 0, err
	}
	defer c.Close()
	first := &proc{cmd: c.Procs[0].Cmd, cl: c.Procs[0].Client}
	wf, err := firstID(ctx, first, "workflow")
	if err != nil {
		return 0, 0, 0, err
	}
	args := map[string]any{"refs": []any{map[string]any{"ruleId": wf, "constraintId": "Steps/1"}}}
	var (
		mu   sync.Mutex
		lats []time.Duration
		errs []error
		wg   sync.WaitGroup
	)
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
	took := time.Since(start)
	if len(errs) > 0 {
		return 0, 0, 0, fmt.Errorf("%d sessions: %w", n, errs[0])
	}
	return float64(len(lats)) / took.Seconds(), percentile(lats, 50), percentile(lats, 99), nil
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

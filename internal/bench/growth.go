package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/workspace"
)

// benchGrowth measures how `clumsies serve` grows with the catalog: at
// 1,000, 10,000 and 50,000 rules, the first start (which publishes them
// all), a restart on the unchanged tree (content files opened, time to
// the first answer), memdisc with a one-match query against the bare
// echo tool in the same run, and the peak RSS of each.
func benchGrowth(ctx context.Context, b *bench) error {
	sizes, n := []int{1000, 10_000, 50_000}, 500
	if b.quick {
		sizes, n = []int{1000, 5000}, 100
	}
	_, straceErr := exec.LookPath("strace")
	b.printf("## Serving as the catalog grows (issue 11: memory and an indexed memdisc)\n\n`clumsies serve --sync interval` over stdio on catalogs of rules in 100 groups (files written %s before the first start, out of the scan index's racy window). First start: spawn until the first tool call (memsetup) answers, the whole catalog published meanwhile, and the peak RSS of that process. Restart: the same on the unchanged tree, `.md` files opened until that answer (counted with strace; META_PROMPT.md is read once for initialize's instructions), peak RSS after the calls below. memdisc with a query of one match (`RULE0123.md`), %d calls in blocks alternating with the bare go-sdk echo tool of the same client.\n\n", content.RacyWindow, n)
	b.printf("| rules | first start s | first start peak RSS MiB | restart ms | .md opened at restart | echo p50 µs | memdisc p50 µs | memdisc / echo | serve peak RSS MiB |\n|---|---|---|---|---|---|---|---|---|\n")
	type row struct {
		rules      int
		memdisc    time.Duration
		rss, first int64
	}
	var rows []row
	for _, rules := range sizes {
		ws, _, err := workspace.Init(b.tempDir(fmt.Sprintf("growth-%d", rules)))
		if err != nil {
			return err
		}
		if err := writeRules(ws.ContentRoot(), rules); err != nil {
			return err
		}
		time.Sleep(content.RacyWindow)

		t0 := time.Now()
		srv, err := start(ctx, b.bin, "serve", "--workspace", ws.Root, "--sync", "interval")
		if err != nil {
			return err
		}
		if err := setupSession(ctx, srv, "bench-growth-first"); err != nil {
			srv.close()
			return err
		}
		first := time.Since(t0)
		firstRSS := peakRSS(srv.cmd.Process.Pid)
		srv.close()

		opened := "(no strace)"
		if straceErr == nil {
			k, err := countOpened(ctx, b, ws.Root)
			if err != nil {
				return err
			}
			opened = fmt.Sprint(k)
		}

		t0 = time.Now()
		srv, err = start(ctx, b.bin, "serve", "--workspace", ws.Root, "--sync", "interval")
		if err != nil {
			return err
		}
		if err := setupSession(ctx, srv, "bench-growth"); err != nil {
			srv.close()
			return err
		}
		restart := time.Since(t0)
		echo50, disc50, err := growthRound(ctx, b, srv, n)
		rss := peakRSS(srv.cmd.Process.Pid)
		srv.close()
		if err != nil {
			return err
		}
		rows = append(rows, row{rules: rules, memdisc: disc50, rss: rss, first: firstRSS})
		b.printf("| %d | %.2f | %.1f | %.0f | %s | %.0f | %.0f | %.2fx | %.1f |\n", rules, first.Seconds(), float64(firstRSS)/1024, ms(restart), opened, us(echo50), us(disc50), float64(disc50)/float64(echo50), float64(rss)/1024)
	}
	base, last := rows[0], rows[len(rows)-1]
	per1k := float64(last.rss-base.rss) / 1024 / (float64(last.rules-base.rules) / 1000)
	b.printf("\nmemdisc at %d rules: %.2fx the %d-rule figure (target ≤ 1.5x: %s). Serve's peak RSS grows %.2f MiB per 1,000 rules from %d to %d (target ≤ 1 MiB: %s); at %d rules %.1f MiB (target ≤ 45 MiB: %s). Publishing the whole catalog peaked at %.1f MiB against %.1f MiB serving it.\n\n",
		last.rules, float64(last.memdisc)/float64(base.memdisc), base.rules, verdict(float64(last.memdisc) <= 1.5*float64(base.memdisc)),
		per1k, base.rules, last.rules, verdict(per1k <= 1), base.rules, float64(base.rss)/1024, verdict(base.rss <= 45*1024),
		float64(last.first)/1024, float64(last.rss)/1024)
	return nil
}

// growthRound measures memdisc with a one-match query and the echo tool
// in alternating blocks and returns their p50s.
func growthRound(ctx context.Context, b *bench, srv *proc, n int) (echo50, disc50 time.Duration, err error) {
	echo, err := start(ctx, b.echo)
	if err != nil {
		return 0, 0, err
	}
	defer echo.close()
	query := map[string]any{"query": "RULE0123.md"}
	res, err := srv.call(ctx, "memdisc", query)
	if err != nil {
		return 0, 0, err
	}
	if items, _ := res["items"].([]any); len(items) != 1 {
		return 0, 0, fmt.Errorf("memdisc %v found %d items, want 1", query, len(items))
	}
	if _, err := echo.timed(ctx, 50, "echo", map[string]any{"text": "hello"}); err != nil {
		return 0, 0, err
	}
	if _, err := srv.timed(ctx, 50, "memdisc", query); err != nil {
		return 0, 0, err
	}
	var echoes, discs []time.Duration
	for range 5 {
		d, err := echo.timed(ctx, n/5, "echo", map[string]any{"text": "hello"})
		if err != nil {
			return 0, 0, err
		}
		echoes = append(echoes, d...)
		if d, err = srv.timed(ctx, n/5, "memdisc", query); err != nil {
			return 0, 0, err
		}
		discs = append(discs, d...)
	}
	return percentile(echoes, 50), percentile(discs, 50), nil
}

// countOpened starts serve under strace until its first answer and
// returns how many times it opened a content file (a .md file).
func countOpened(ctx context.Context, b *bench, root string) (int, error) {
	trace := filepath.Join(b.tempDir("strace"), "trace")
	srv, err := start(ctx, "strace", "-f", "-qq", "-e", "trace=open,openat,openat2", "-o", trace, b.bin, "serve", "--workspace", root, "--sync", "interval")
	if err != nil {
		return 0, err
	}
	err = setupSession(ctx, srv, "bench-growth-strace")
	srv.close()
	if err != nil {
		return 0, err
	}
	data, err := os.ReadFile(trace)
	if err != nil {
		return 0, err
	}
	k := 0
	for _, line := range strings.Split(string(data), "\n") {
		if strings.Contains(line, ".md\"") {
			k++
		}
	}
	return k, nil
}

package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"
)

// benchLongRun runs one `clumsies serve` on the lean section's catalog
// for b.longRun, answering memloads with a memdisc of the 50-hit query
// every fifth call, one call at a time, and samples its memory every
// b.longEvery: the resident set (anonymous and file pages) and the Go
// heap as the process reports it (serve --pprof).
func benchLongRun(ctx context.Context, b *bench) error {
	dir, err := leanWorkspace(ctx, b, "")
	if err != nil {
		return err
	}
	addr, err := freeLoopback()
	if err != nil {
		return err
	}
	srv, err := start(ctx, b.bin, "serve", "--workspace", dir, "--sync", "interval", "--pprof", addr)
	if err != nil {
		return err
	}
	defer srv.close()
	if err := setupSession(ctx, srv, "bench-longrun"); err != nil {
		return err
	}
	disc, err := srv.call(ctx, "memdisc", map[string]any{"query": leanTag})
	if err != nil {
		return err
	}
	item := disc["items"].([]any)[0].(map[string]any)
	load := map[string]any{"ids": []string{item["id"].(string)}, "knownHashes": map[string]any{item["id"].(string): item["hash"]}}
	query := map[string]any{"query": leanTag}
	b.printf("## Flat over a long run (issue: every session's own serve)\n\nOne `clumsies serve --sync interval` over stdio on the lean section's catalog (%d rules), answering memload (delta hit) with memdisc of %d hits every fifth call, one call at a time, for %s; every %s its resident set (`/proc/PID/status`: VmRSS = RssAnon + RssFile) and the Go heap it reports (`serve --pprof`, `runtime.MemStats` of `/debug/pprof/heap?debug=1`: HeapInuse, and HeapIdle−HeapReleased, the heap's free pages still resident).\n\n",
		leanRules, leanRules/leanEvery, b.longRun, b.longEvery)
	b.printf("| minute | calls | VmRSS MiB | RssAnon MiB | RssFile MiB | HeapInuse MiB | heap free, resident MiB | GC goal MiB |\n|---|---|---|---|---|---|---|---|\n")
	calls, t0 := 0, time.Now()
	next := t0
	var first, last memSample
	for {
		if now := time.Now(); !now.Before(next) {
			m, err := sampleMemory(srv.cmd.Process.Pid, addr)
			if err != nil {
				return err
			}
			if calls == 0 {
				first = m
			}
			last = m
			b.printf("| %.1f | %d | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f |\n", now.Sub(t0).Minutes(), calls, mib(m.rss>>10), mib(m.anon>>10), mib(m.file>>10), mib(m.heapInuse>>10), mib(m.heapFree>>10), mib(m.nextGC>>10))
			if now.Sub(t0) >= b.longRun {
				break
			}
			next = next.Add(b.longEvery)
		}
		tool, args := "memload", any(load)
		if calls%5 == 4 {
			tool, args = "memdisc", query
		}
		isErr, err := srv.cl.Do(ctx, tool, args)
		if err != nil || isErr {
			return fmt.Errorf("call %d (%s): %v (tool error %v)", calls, tool, err, isErr)
		}
		calls++
	}
	elapsed := time.Since(t0)
	b.printf("\n%d calls in %s (%.0f/s); VmRSS from %.1f to %.1f MiB (%+.1f), peak (VmHWM) %.1f MiB.\n\n", calls, elapsed.Round(time.Second), float64(calls)/elapsed.Seconds(),
		mib(first.rss>>10), mib(last.rss>>10), mib((last.rss-first.rss)>>10), float64(peakRSS(srv.cmd.Process.Pid))/1024)
	return nil
}

// memSample is a serving process's memory at one moment, in bytes.
type memSample struct {
	rss, anon, file             int64
	heapInuse, heapFree, nextGC int64
}

// sampleMemory reads pid's resident set and, from its /debug/pprof at
// addr (unless ""), its Go heap.
func sampleMemory(pid int, addr string) (memSample, error) {
	var m memSample
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return m, err
	}
	for _, line := range strings.Split(string(status), "\n") {
		k, v, _ := strings.Cut(line, ":")
		kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		switch k {
		case "VmRSS":
			m.rss = kb << 10
		case "RssAnon":
			m.anon = kb << 10
		case "RssFile":
			m.file = kb << 10
		}
	}
	if addr == "" {
		return m, nil
	}
	resp, err := http.Get("http://" + addr + "/debug/pprof/heap?debug=1")
	if err != nil {
		return m, fmt.Errorf("read serve's heap: %w", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return m, fmt.Errorf("read serve's heap: %w", err)
	}
	stats := map[string]int64{}
	for _, line := range strings.Split(string(body), "\n") {
		if k, v, ok := strings.Cut(strings.TrimPrefix(line, "# "), " = "); ok {
			stats[k], _ = strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		}
	}
	m.heapInuse, m.heapFree, m.nextGC = stats["HeapInuse"], stats["HeapIdle"]-stats["HeapReleased"], stats["NextGC"]
	return m, nil
}

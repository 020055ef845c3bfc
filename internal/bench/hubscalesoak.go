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
)

// soakSample is how often the soak samples the hubs.
const soakSample = time.Minute

// soak has every node append b.hubSoakRate events per second for d, with
// the probe of steady, and samples the hubs every soakSample: their RSS,
// their Go heap in use after a collection and what of it the aggregate's
// de-duplication ids hold, their goroutines, what their read models
// applied, and the probe's append to visible over the sample. It ends
// with what holds the first hub's heap (its profile's top entries, in
// use).
func (r *scaleRun) soak(ctx context.Context, d time.Duration) error {
	b := r.b
	every := time.Duration(float64(time.Second) / b.hubSoakRate)
	b.printf("#### Soak: %s of %g ev/s from every node (%.0f ev/s), sampled every %s\n\nLoad average at the start: %s.\n\n", d, b.hubSoakRate, float64(len(r.nodes))*b.hubSoakRate, soakSample, loadAvg())
	b.printf("| sample (minutes since the start) | hub RSS, MiB (each hub) | Go heap in use after a collection, MiB (each hub) | of it the de-duplication ids, MiB (each hub) | goroutines (each hub) | events applied (hub 1) | append to visible p50, p99 |\n|---|---|---|---|---|---|---|\n")
	r.curves = make([][]soakPoint, len(r.hubs))
	start := time.Now()
	r.soakRow(ctx, 0, 0, nil)
	lctx, stop := context.WithTimeout(ctx, d)
	defer stop()
	load := r.startLoad(ctx, lctx, every)
	reads := func() soakReads { return soakReads{} }
	if b.hubSoakStats > 0 {
		reads = r.startStatsReads(lctx)
	}
	probed := 0
	for m := 1; lctx.Err() == nil; m++ {
		sctx, done := context.WithTimeout(lctx, soakSample)
		lat, err := r.probe(ctx, sctx, probed)
		done()
		if err != nil {
			stop()
			_ = load()
			return fmt.Errorf("soak, minute %d: %w", m, err)
		}
		probed += len(lat)
		r.soakRow(ctx, m, time.Since(start), lat)
	}
	if err := load(); err != nil {
		return fmt.Errorf("soak: %w", err)
	}
	if rd := reads(); b.hubSoakStats > 0 {
		b.printf("\nEvery hub's stats summary (30 days) read every %s during the soak, as a dashboard left open redraws: %d reads answered, %d failed; a read p50 %.0f ms, p99 %.0f ms.\n", b.hubSoakStats, len(rd.took), rd.failed, ms(percentile(rd.took, 50)), ms(percentile(rd.took, 99)))
	}
	top, err := r.hubs[0].heapTop(ctx, 12)
	if err != nil {
		return fmt.Errorf("the heap profile after the soak: %w", err)
	}
	if err := r.appliedExactly(ctx); err != nil {
		return fmt.Errorf("after the soak: %w", err)
	}
	b.printf("\nLoad average at the end: %s. Every hub's read models applied, and its stats counted, exactly the %d events appended.\n\n", loadAvg(), r.events)
	for i, c := range r.curves {
		if t := soakTrend(c, soakSettled); t != "" {
			b.printf("Hub %d once the de-duplication window is full: %s.\n\n", i+1, t)
		}
	}
	b.printf("What holds hub 1's heap at the end of the soak (`go tool pprof -top -inuse_space`, the first entries):\n\n```\n%s```\n\n", top)
	return nil
}

// appliedExactly waits until every hub's read models applied every event
// appended, checks that none applied more (a message twice in the
// aggregate), and that its stats count each event once.
func (r *scaleRun) appliedExactly(ctx context.Context) error {
	for _, hp := range r.hubs {
		if _, err := hp.waitApplied(ctx, r.events, 10*time.Minute); err != nil {
			return err
		}
		got, err := hp.applied(ctx)
		if err != nil {
			return err
		}
		if got != r.events {
			return fmt.Errorf("hub %s applied %d aggregate messages, want %d", hp.cfg.Name, got, r.events)
		}
		if err := hp.countExact(ctx, r.events); err != nil {
			return err
		}
	}
	return nil
}

// soakRow prints one sample of the hubs, taken at (since the soak's start).
func (r *scaleRun) soakRow(ctx context.Context, minute int, at time.Duration, lat []time.Duration) {
	var rss, heap, ids, gor []string
	var sum int64
	for i, hp := range r.hubs {
		k := hp.rss()
		sum += k
		p := soakPoint{at: at.Minutes(), rss: mib(k), heap: -1, ids: -1, goroutines: -1}
		rss = append(rss, fmt.Sprintf("%.0f", p.rss))
		if h, d, err := hp.heapInuse(ctx); err == nil {
			p.heap, p.ids = mib(h), mib(d)
			heap = append(heap, fmt.Sprintf("%.0f", p.heap))
			ids = append(ids, fmt.Sprintf("%.1f", p.ids))
		} else {
			heap, ids = append(heap, "?"), append(ids, "?")
		}
		if g, err := hp.goroutines(ctx); err == nil {
			p.goroutines = g
			gor = append(gor, strconv.Itoa(g))
		} else {
			gor = append(gor, "?")
		}
		r.curves[i] = append(r.curves[i], p)
	}
	applied := "?"
	if a, err := r.hubs[0].applied(ctx); err == nil {
		applied = strconv.FormatUint(a, 10)
	}
	probes := "-"
	if len(lat) > 0 {
		probes = fmt.Sprintf("%.1f, %.1f ms (%d probes)", ms(percentile(lat, 50)), ms(percentile(lat, 99)), len(lat))
	}
	all := strings.Join(rss, ", ")
	if len(r.hubs) > 1 {
		all = fmt.Sprintf("%.0f (%s)", mib(sum), all)
	}
	r.b.printf("| %d (%.1f) | %s | %s | %s | %s | %s | %s |\n", minute, at.Minutes(), all, strings.Join(heap, ", "), strings.Join(ids, ", "), strings.Join(gor, ", "), applied, probes)
}

// heapInuse is the process's Go heap in use (runtime.MemStats.HeapInuse)
// right after a collection, in KiB, as its heap profile's text form gives
// it: what the heap holds live, without the garbage of the moment; and
// of it, in KiB, what the streams' de-duplication ids hold (dedupeIDFuncs).
func (hp *hubProc) heapInuse(ctx context.Context) (inuse, ids int64, err error) {
	body, err := hp.pprofGet(ctx, "/debug/pprof/heap?gc=1&debug=1")
	if err != nil {
		return 0, 0, err
	}
	if ids, err = heapHeld(string(body), dedupeIDFuncs...); err != nil {
		return 0, 0, fmt.Errorf("hub %s: %w", hp.cfg.Name, err)
	}
	for line := range strings.Lines(string(body)) {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "# HeapInuse = "); ok {
			n, err := strconv.ParseInt(v, 10, 64)
			return n / 1024, ids / 1024, err
		}
	}
	return 0, 0, fmt.Errorf("hub %s: no HeapInuse in its heap profile", hp.cfg.Name)
}

// goroutines is the process's goroutine count, as the first line of its
// goroutine profile's text form gives it.
func (hp *hubProc) goroutines(ctx context.Context) (int, error) {
	body, err := hp.pprofGet(ctx, "/debug/pprof/goroutine?debug=1")
	if err != nil {
		return 0, err
	}
	first, _, _ := strings.Cut(string(body), "\n")
	if v, ok := strings.CutPrefix(first, "goroutine profile: total "); ok {
		return strconv.Atoi(strings.TrimSpace(v))
	}
	return 0, fmt.Errorf("hub %s: no total in its goroutine profile", hp.cfg.Name)
}

// heapTop returns the first n entries of the process's heap profile by
// the space in use.
func (hp *hubProc) heapTop(ctx context.Context, n int) (string, error) {
	body, err := hp.pprofGet(ctx, "/debug/pprof/heap")
	if err != nil {
		return "", err
	}
	file := filepath.Join(hp.b.tmp, "heap-"+hp.cfg.Name+".pb.gz")
	if err := os.WriteFile(file, body, 0o600); err != nil {
		return "", err
	}
	out, err := exec.CommandContext(ctx, "go", "tool", "pprof", "-top", "-inuse_space", "-nodecount", strconv.Itoa(n), file).Output()
	if err != nil {
		return "", fmt.Errorf("go tool pprof: %w", err)
	}
	return string(out), nil
}

func (hp *hubProc) pprofGet(ctx context.Context, path string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	return getBench(ctx, "http://"+hp.pprof+path)
}

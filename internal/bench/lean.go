package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/clumsies/clumsies/internal/otelcoltest"
	"github.com/clumsies/clumsies/workspace"
)

// The lean section's catalog: leanRules rules, one in leanEvery tagged
// with leanTag in its description, so that memdisc with the query
// leanTag answers leanRules/leanEvery items.
const (
	leanRules = 1000
	leanEvery = 20
	leanTag   = "audited"
)

// benchLean measures what every agent session's own `clumsies serve`
// costs, beside the bare go-sdk echo server in the same run: the binary's
// size, the peak RSS of `clumsies version` and of serve after 1,000
// memloads on a 1,000-rule catalog with telemetry off and on (exporting
// to a real collector), memdisc with a 50-hit query and memload against
// echo calls, spawn to initialize, and serve's CPU while idle; each
// comparison in alternating blocks or side by side.
func benchLean(ctx context.Context, b *bench) error {
	loads, discs, spawns := 1000, 400, 20
	if b.quick {
		loads, discs, spawns = 200, 80, 6
	}
	b.printf("## The one binary lean again (issue: every session's own serve)\n\n")
	info, err := os.Stat(b.bin)
	if err != nil {
		return err
	}
	for _, bin := range []string{b.bin, b.vs} {
		if bin == "" {
			continue
		}
		if err := dropFromPageCache(bin); err != nil {
			return err
		}
	}
	version, err := medianRSS(b.bin, 5, "version")
	if err != nil {
		return err
	}
	col, err := otelcoltest.Run(b.tempDir("lean-otelcol"))
	if err != nil {
		return err
	}
	defer col.Stop()
	off, err := leanWorkspace(ctx, b, "")
	if err != nil {
		return err
	}
	on, err := leanWorkspace(ctx, b, fmt.Sprintf("\n[otel]\nendpoint = %q\n", col.HTTP))
	if err != nil {
		return err
	}
	var serveInit, echoInit []time.Duration
	for range spawns {
		d, _, err := spawnToInit(ctx, "", nil, b.bin, "serve", "--workspace", off, "--sync", "interval")
		if err != nil {
			return err
		}
		serveInit = append(serveInit, d)
		if d, _, err = spawnToInit(ctx, "", nil, b.echo); err != nil {
			return err
		}
		echoInit = append(echoInit, d)
	}
	copies, err := leanCopies(b, off, on, b.leanPairs-1)
	if err != nil {
		return err
	}
	tsDir, err := copyWorkspace(b, off)
	if err != nil {
		return err
	}
	vsDir := ""
	if b.vs != "" {
		if vsDir, err = leanWorkspace(ctx, b, ""); err != nil {
			return err
		}
	}
	r, err := leanRound(ctx, b, off, on, vsDir, loads, discs)
	if err != nil {
		return err
	}
	idle, err := leanIdle(ctx, b, off, vsDir)
	if err != nil {
		return err
	}
	offPeaks, onPeaks := []int64{r.rssOff}, []int64{r.rssOn}
	var diffs []int64
	for _, c := range copies {
		po, pn, err := leanPeak(ctx, b, c[0], c[1], loads)
		if err != nil {
			return err
		}
		offPeaks, onPeaks = append(offPeaks, po), append(onPeaks, pn)
	}
	for i := range offPeaks {
		diffs = append(diffs, onPeaks[i]-offPeaks[i])
	}
	rssOff, offText := medianPeak(offPeaks)
	rssOn, onText := medianPeak(onPeaks)
	share, shareText := medianPeak(diffs)
	b.printf("`clumsies serve --sync interval` over stdio on a catalog of %d rules, published beforehand, driven by the go-sdk client; two servers of two like workspaces, one exporting to a real OpenTelemetry Collector (`[otel]`, OTLP/HTTP) and one not, and the bare go-sdk echo server, in alternating blocks after a warm-up: %d memloads (delta hit) of each server, %d memdiscs with a query of %d hits (`%s`), as many echo calls of each size. Peak RSS is VmHWM after the memloads (and their warm-up), before the memdiscs. Spawn to initialize: %d spawns of serve and of echo alternating.\n\n",
		leanRules, loads, discs, leanRules/leanEvery, leanTag, spawns)
	b.printf("The TypeScript client's rows: after those, the same comparison through the official MCP TypeScript SDK client (Client over StdioClientTransport, as the Node agent hosts use it; internal/bench/tsclient/lean.mjs, its npm packages pinned and installed on demand into the user's cache folder): a serve of a copy of the telemetry-off workspace (copied before any memload) and the echo server spawned by node; %d spawns of each alternating, then after a warm-up the same calls with the same arguments as the go-sdk client's (memload, memdisc and the echoes' texts) in the same alternating blocks; latencies read with process.hrtime around callTool, after tools/list (so the client checks each structured answer against the tool's output schema, as the hosts' does); serve's peak RSS is its VmHWM after the memloads, one server.\n\n", spawns)
	b.printf("Idle CPU: after those, a serve of the telemetry-off workspace, bound to a session, and the echo server (and with -vs the other build's serve on its workspace) run side by side doing nothing; their CPU time (user and system, /proc, in ticks of 10 ms) over %s, %s after their first answer, per minute.\n\n", idle.over, leanIdleSettle)
	if b.vs != "" {
		b.printf("With -vs, a serve of that build (`%s`) on a like workspace answers the same memloads and memdiscs, in the same alternating blocks.\n\n", b.vs)
	}
	b.printf("| figure | clumsies | baseline | ratio | target |\n|---|---|---|---|---|\n")
	b.printf("| binary MB | %.1f | | | |\n", float64(info.Size())/1e6)
	b.printf("| `clumsies version` peak RSS MiB (median of 5) | %.1f | | | near 22 MiB (≤ 23): %s |\n", float64(version)/1024, verdict(version <= 23*1024))
	b.printf("| serve peak RSS MiB, telemetry off (median of %d fresh servers: %s) | %.1f | | | ≤ 45 MiB: %s |\n", len(offPeaks), offText, float64(rssOff)/1024, verdict(rssOff <= 45*1024))
	b.printf("| of which, the first pair: peak once open (memsetup, memdisc); after the memloads RssAnon / RssFile | %.1f; %.1f / %.1f | | | |\n", float64(r.openOff)/1024, float64(r.anon[0])/1024, float64(r.file[0])/1024)
	b.printf("| serve peak RSS MiB, telemetry on (median: %s); on minus off, median of the %d pairs (%s) | %.1f | %.1f (off) | %+.1f MiB | ≤ +1 MiB: %s |\n", onText, len(diffs), shareText, float64(rssOn)/1024, float64(rssOff)/1024, float64(share)/1024, verdict(share <= 1024))
	b.printf("| of which, the first pair: after the memloads RssAnon / RssFile, on vs off | %.1f / %.1f | %.1f / %.1f | %+.1f / %+.1f MiB | |\n", float64(r.anon[1])/1024, float64(r.file[1])/1024, float64(r.anon[0])/1024, float64(r.file[0])/1024, float64(r.anon[1]-r.anon[0])/1024, float64(r.file[1]-r.file[0])/1024)
	disc, echo := percentile(r.lat["memdisc"], 50), percentile(r.lat["echo"], 50)
	b.printf("| go-sdk client: memdisc (%d hits, %.1f KiB) p50 µs vs echo | %.0f | %.0f | %.2fx | ≤ 2.5x: %s |\n", leanRules/leanEvery, float64(r.discSize)/1024, us(disc), us(echo), float64(disc)/float64(echo), verdict(float64(disc) <= 2.5*float64(echo)))
	if b.vs != "" {
		vs := percentile(r.lat[leanVsDisc], 50)
		b.printf("| memdisc p50 µs vs %s | %.0f | %.0f | %.2fx | |\n", leanVs, us(disc), us(vs), float64(disc)/float64(vs))
		b.printf("| %s: memdisc p50 µs vs echo | %.0f | %.0f | %.2fx | |\n", leanVs, us(vs), us(echo), float64(vs)/float64(echo))
	}
	dsized := percentile(r.lat[discSizedEcho], 50)
	b.printf("| go-sdk client: memdisc p50 µs vs %s | %.0f | %.0f | %.2fx | |\n", discSizedEcho, us(disc), us(dsized), float64(disc)/float64(dsized))
	load, sized := percentile(r.lat["memload off"], 50), percentile(r.lat[sizedEcho], 50)
	b.printf("| go-sdk client: memload (delta hit) p50 µs vs %s | %.0f | %.0f | %.2fx | ≤ 1.1x: %s |\n", sizedEcho, us(load), us(sized), float64(load)/float64(sized), verdict(float64(load) <= 1.1*float64(sized)))
	if b.vs != "" {
		vs := percentile(r.lat[leanVs], 50)
		b.printf("| memload p50 µs vs %s | %.0f | %.0f | %.2fx | |\n", leanVs, us(load), us(vs), float64(load)/float64(vs))
		b.printf("| %s: memload p50 µs vs %s | %.0f | %.0f | %.2fx | |\n", leanVs, sizedEcho, us(vs), us(sized), float64(vs)/float64(sized))
		b.printf("| serve peak RSS MiB vs %s | %.1f | %.1f | %+.1f MiB | |\n", leanVs, float64(r.rssOff)/1024, float64(r.rssVs)/1024, float64(r.rssOff-r.rssVs)/1024)
	}
	b.printf("| serve idle CPU ms per minute, %d rules, vs echo's | %.0f | %.0f | %s | |\n", leanRules, ms(idle.serve), ms(idle.echo), idleRatio(idle.serve, idle.echo))
	if b.vs != "" {
		b.printf("| serve idle CPU ms per minute vs %s | %.0f | %.0f | %s | |\n", leanVs, ms(idle.serve), ms(idle.vs), idleRatio(idle.serve, idle.vs))
	}
	loadOn := percentile(r.lat["memload on"], 50)
	b.printf("| memload p50 µs, telemetry on vs off | %.0f | %.0f | %.2fx | |\n", us(loadOn), us(load), float64(loadOn)/float64(load))
	perCall := func(k string) float64 { return us(r.cpu[k]) / float64(len(r.lat[k])) }
	b.printf("| server CPU µs per memdisc vs per echo | %.0f | %.0f | %.2fx | |\n", perCall("memdisc"), perCall("echo"), perCall("memdisc")/perCall("echo"))
	b.printf("| server CPU µs per memdisc vs per %s | %.0f | %.0f | %.2fx | |\n", discSizedEcho, perCall("memdisc"), perCall(discSizedEcho), perCall("memdisc")/perCall(discSizedEcho))
	b.printf("| server CPU µs per memload vs per %s | %.0f | %.0f | %.2fx | |\n", sizedEcho, perCall("memload off"), perCall(sizedEcho), perCall("memload off")/perCall(sizedEcho))
	if b.vs != "" {
		b.printf("| server CPU µs per memdisc vs %s | %.0f | %.0f | %.2fx | |\n", leanVs, perCall("memdisc"), perCall(leanVsDisc), perCall("memdisc")/perCall(leanVsDisc))
		b.printf("| server CPU µs per memload vs %s | %.0f | %.0f | %.2fx | |\n", leanVs, perCall("memload off"), perCall(leanVs), perCall("memload off")/perCall(leanVs))
	}
	s50, e50 := percentile(serveInit, 50), percentile(echoInit, 50)
	b.printf("| go-sdk client: spawn to initialize p50 ms vs echo | %.1f | %.1f | %.2fx | ≤ 2.5x: %s |\n", ms(s50), ms(e50), float64(s50)/float64(e50), verdict(float64(s50) <= 2.5*float64(e50)))
	if err := leanTS(ctx, b, tsDir, r.calls, r.discSize, loads, discs, spawns); err != nil {
		return fmt.Errorf("the TypeScript client: %w", err)
	}
	b.printf("\n")
	return nil
}

// discSizedEcho names the echo call whose answer is as large as the
// 50-hit memdisc's.
const discSizedEcho = "echo (memdisc-sized answer)"

// leanVs and leanVsDisc name the memloads and the memdiscs of the -vs
// build's serve (telemetry off).
const (
	leanVs     = "the -vs build's serve"
	leanVsDisc = "the -vs build's serve (memdisc)"
)

// leanResult is what leanRound measured.
type leanResult struct {
	lat           map[string][]time.Duration
	cpu           map[string]time.Duration // the server's CPU time (user and system) in each kind's blocks
	rssOff, rssOn int64                    // KiB
	rssVs         int64                    // KiB: the -vs build's serve, after the memloads
	openOff       int64                    // KiB: the peak once open, before the memloads
	anon, file    [2]int64                 // KiB: the resident set of serve off and on after the memloads
	discSize      int                      // bytes of memdisc's structured answer
	// calls are the arguments of the calls timed, for the TypeScript
	// client to make the same ones.
	calls leanCalls
}

// leanCalls are the arguments of the lean section's timed calls, as the
// go-sdk client made them.
type leanCalls struct {
	hit                map[string]any // memload's, a delta hit
	loadText, discText string         // the size-matched echoes' texts: memload's and memdisc's answers
}

// leanRound drives the two servers and the echo server in alternating
// blocks and returns the latencies and the servers' peak RSS. With vsDir
// set, a serve of the -vs build on that workspace answers the same
// memloads, alternating with the others.
func leanRound(ctx context.Context, b *bench, offDir, onDir, vsDir string, loads, discs int) (leanResult, error) {
	res := leanResult{lat: map[string][]time.Duration{}, cpu: map[string]time.Duration{}}
	echo, err := start(ctx, b.echo)
	if err != nil {
		return res, err
	}
	defer echo.close()
	// Two phases, each alternating its comparisons: memload against the
	// size-matched echo (serve's peak RSS is read at its end, after the
	// memloads alone), then memdisc against the echoes.
	var loadSteps, steps []leanStep
	var servers []*proc
	for _, s := range []struct{ name, dir string }{{"off", offDir}, {"on", onDir}} {
		p, err := start(ctx, b.bin, "serve", "--workspace", s.dir, "--sync", "interval")
		if err != nil {
			return res, err
		}
		defer p.close()
		servers = append(servers, p)
		hit, disc, err := leanHit(ctx, p, "bench-lean-"+s.name)
		if err != nil {
			return res, err
		}
		raw, _ := json.Marshal(disc)
		res.discSize = len(raw)
		if s.name == "off" {
			res.calls.hit, res.calls.discText = hit, string(raw)
			steps = append(steps, leanStep{discSizedEcho, echo, "echo", map[string]any{"text": string(raw)}, discs})
		}
		loadSteps = append(loadSteps, leanStep{"memload " + s.name, p, "memload", hit, loads})
		if s.name == "off" {
			answer, err := p.call(ctx, "memload", hit)
			if err != nil {
				return res, err
			}
			sized, _ := json.Marshal(answer)
			res.calls.loadText = string(sized)
			loadSteps = append(loadSteps, leanStep{sizedEcho, echo, "echo", map[string]any{"text": string(sized)}, loads})
			steps = append(steps,
				leanStep{"memdisc", p, "memdisc", map[string]any{"query": leanTag}, discs},
				leanStep{"echo", echo, "echo", map[string]any{"text": "hello"}, discs})
		}
	}
	var vsProc *proc
	if vsDir != "" {
		p, err := start(ctx, b.vs, "serve", "--workspace", vsDir, "--sync", "interval")
		if err != nil {
			return res, err
		}
		defer p.close()
		vsProc = p
		hit, _, err := leanHit(ctx, p, "bench-lean-vs")
		if err != nil {
			return res, err
		}
		loadSteps = append(loadSteps, leanStep{leanVs, p, "memload", hit, loads})
		steps = append(steps, leanStep{leanVsDisc, p, "memdisc", map[string]any{"query": leanTag}, discs})
	}
	res.openOff = peakRSS(servers[0].cmd.Process.Pid)
	if err := res.alternate(ctx, loadSteps); err != nil {
		return res, err
	}
	res.rssOff, res.rssOn = peakRSS(servers[0].cmd.Process.Pid), peakRSS(servers[1].cmd.Process.Pid)
	if vsProc != nil {
		res.rssVs = peakRSS(vsProc.cmd.Process.Pid)
	}
	for i, p := range servers {
		if m, err := sampleMemory(p.cmd.Process.Pid, ""); err == nil {
			res.anon[i], res.file[i] = m.anon>>10, m.file>>10
		}
	}
	return res, res.alternate(ctx, steps)
}

// leanStep is a kind of call the lean section times: n calls of tool on
// p, under name.
type leanStep struct {
	name string
	p    *proc
	tool string
	args any
	n    int
}

// alternate makes the steps' calls in 8 rounds of blocks, after a round
// that warms up, and adds their latencies and the servers' CPU time.
func (res leanResult) alternate(ctx context.Context, steps []leanStep) error {
	const rounds = 8
	for r := -1; r < rounds; r++ {
		for _, s := range steps {
			before := cpuTime(s.p.cmd.Process.Pid)
			d, err := s.p.timed(ctx, s.n/rounds, s.tool, s.args)
			if err != nil {
				return err
			}
			if r >= 0 {
				res.lat[s.name] = append(res.lat[s.name], d...)
				res.cpu[s.name] += cpuTime(s.p.cmd.Process.Pid) - before
			}
		}
	}
	return nil
}

// leanWorkspace makes and publishes a workspace of leanRules rules whose
// config.toml ends with extra, and returns its root.
func leanWorkspace(ctx context.Context, b *bench, extra string) (string, error) {
	ws, _, err := workspace.Init(b.tempDir("lean"))
	if err != nil {
		return "", err
	}
	if err := appendConfig(ws, extra); err != nil {
		return "", err
	}
	for i := range leanRules {
		tag := ""
		if i%leanEvery == 0 {
			tag = " (" + leanTag + ")"
		}
		p := filepath.Join(ws.ContentRoot(), "rules", fmt.Sprintf("g%02d", i%100), fmt.Sprintf("RULE%04d.md", i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return "", err
		}
		body := fmt.Sprintf("# Rule %d\n\nHow the team handles concern number %d in group %d%s.\n\n## Steps\n\n- Check the inputs of step %d before use.\n- Log what was decided and why.\n- Keep the change small.\n", i, i, i%100, tag, i)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			return "", err
		}
	}
	if out, err := exec.CommandContext(ctx, b.bin, "publish", "--workspace", ws.Root).CombinedOutput(); err != nil {
		return "", fmt.Errorf("publish: %v: %s", err, out)
	}
	return ws.Root, nil
}

// medianRSS runs bin with args n times and returns the median of its
// peak RSS in KiB. A child's getrusage counts the memory of the process
// it was forked from (Go forks with the parent's memory shared until the
// exec), so bin runs under /usr/bin/time, a small process that forks it.
func medianRSS(bin string, n int, args ...string) (int64, error) {
	var rss []float64
	for range n {
		out, err := exec.Command("/usr/bin/time", append([]string{"-f", "%M", bin}, args...)...).CombinedOutput()
		if err != nil {
			return 0, fmt.Errorf("/usr/bin/time %s %v (Debian: apt-get install time): %w: %s", bin, args, err, out)
		}
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		kb, err := strconv.ParseInt(lines[len(lines)-1], 10, 64)
		if err != nil {
			return 0, fmt.Errorf("read the peak RSS of %s %v: %q", bin, args, out)
		}
		rss = append(rss, float64(kb))
	}
	return int64(median(rss)), nil
}

package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/clumsies/clumsies/internal/otelcoltest"
	"github.com/clumsies/clumsies/workspace"
)

// benchOTel measures what the OpenTelemetry export ([otel] endpoint)
// costs a tool call: two serve processes of two like workspaces, one
// exporting to a real collector over OTLP/HTTP and one not, driven in
// interleaved blocks in the same run.
func benchOTel(ctx context.Context, b *bench) error {
	n := 2000
	if b.quick {
		n = 200
	}
	col, err := otelcoltest.Run(b.tempDir("otelcol"))
	if err != nil {
		return err
	}
	defer col.Stop()
	off, _, err := workspace.Init(b.tempDir("otel-off"))
	if err != nil {
		return err
	}
	on, _, err := workspace.Init(b.tempDir("otel-on"))
	if err != nil {
		return err
	}
	if err := appendConfig(on, fmt.Sprintf("\n[otel]\nendpoint = %q\n", col.HTTP)); err != nil {
		return err
	}
	b.printf("## OpenTelemetry export, per call (issue 25: telemetry into the stack a team already runs)\n\n`clumsies serve --sync interval` over stdio, once with `[otel] endpoint` naming a real OpenTelemetry Collector (OTLP/HTTP, on this machine) and once without; %d calls of each kind in interleaved blocks of %d after a warm-up, the same run. The call hands its span to a queue and returns; the export is the SDK's batch processor's.\n\n", n, n/8)
	b.printf("| call | p50 µs off | p50 µs on | p50 on/off | p99 µs off | p99 µs on | server CPU µs/call off | on |\n|---|---|---|---|---|---|---|---|\n")
	lat, cpu, calls, err := otelRound(ctx, b, off.Root, on.Root, n)
	if err != nil {
		return err
	}
	for _, k := range []string{"memload (delta hit)", "memref"} {
		offK, onK := lat[k+" off"], lat[k+" on"]
		p50off, p50on := us(percentile(offK, 50)), us(percentile(onK, 50))
		b.printf("| %s | %.0f | %.0f | %.2fx | %.0f | %.0f | %.0f | %.0f |\n", k, p50off, p50on, p50on/p50off,
			us(percentile(offK, 99)), us(percentile(onK, 99)), us(cpu[k+" off"])/float64(len(offK)), us(cpu[k+" on"])/float64(len(onK)))
	}
	// serve flushed at its exit: every call's span reached the collector,
	// or was counted as dropped.
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	var spans int
	for ctx.Err() == nil {
		r, err := col.Read()
		if err != nil {
			return err
		}
		if spans = len(r.Spans); spans >= calls {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	b.printf("\nThe collector received %d spans of the %d calls of the exporting server.\n\n", spans, calls)
	return nil
}

// otelRound drives both servers and returns the latencies and server CPU
// time of each kind of call, "... off" and "... on", and the calls the
// exporting server answered (its spans to expect).
func otelRound(ctx context.Context, b *bench, offDir, onDir string, n int) (map[string][]time.Duration, map[string]time.Duration, int, error) {
	type server struct {
		name string
		p    *proc
		wf   string
		hash string
	}
	var servers []*server
	for _, s := range []struct{ name, dir string }{{"off", offDir}, {"on", onDir}} {
		p, err := start(ctx, b.bin, "serve", "--workspace", s.dir, "--sync", "interval")
		if err != nil {
			return nil, nil, 0, err
		}
		defer p.close()
		if err := setupSession(ctx, p, "bench-otel-"+s.name); err != nil {
			return nil, nil, 0, err
		}
		wf, err := firstID(ctx, p, "workflow")
		if err != nil {
			return nil, nil, 0, err
		}
		res, err := p.call(ctx, "memload", map[string]any{"ids": []string{wf}, "knownHashes": map[string]any{wf: ""}})
		if err != nil {
			return nil, nil, 0, err
		}
		servers = append(servers, &server{s.name, p, wf, res["items"].([]any)[0].(map[string]any)["hash"].(string)})
	}
	calls := 3 // memsetup, memdisc and memload of the exporting server
	lat := map[string][]time.Duration{}
	cpu := map[string]time.Duration{}
	block := n / 8
	for r := -1; r < 8; r++ { // round -1 warms up
		for _, s := range servers {
			for _, k := range []struct {
				name, tool string
				args       any
			}{
				{"memload (delta hit)", "memload", map[string]any{"ids": []string{s.wf}, "knownHashes": map[string]any{s.wf: s.hash}}},
				{"memref", "memref", map[string]any{"refs": []any{map[string]any{"ruleId": s.wf, "constraintId": "Steps/1"}}}},
			} {
				before := cpuTime(s.p.cmd.Process.Pid)
				d, err := s.p.timed(ctx, block, k.tool, k.args)
				if err != nil {
					return nil, nil, 0, err
				}
				if s.name == "on" {
					calls += len(d)
				}
				if r >= 0 {
					cpu[k.name+" "+s.name] += cpuTime(s.p.cmd.Process.Pid) - before
					lat[k.name+" "+s.name] = append(lat[k.name+" "+s.name], d...)
				}
			}
		}
	}
	return lat, cpu, calls, nil
}

// appendConfig adds text at the end of a workspace's config.toml.
func appendConfig(ws *workspace.Workspace, text string) error {
	f, err := os.OpenFile(filepath.Join(ws.MetaDir(), workspace.ConfigName), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return fmt.Errorf("open config.toml: %w", err)
	}
	if _, err := f.WriteString(text); err != nil {
		f.Close()
		return fmt.Errorf("write config.toml: %w", err)
	}
	return f.Close()
}

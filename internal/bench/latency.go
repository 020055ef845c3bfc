package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/clumsies/clumsies/workspace"
)

// benchLatency measures tool-call latency over real stdio against a bare
// go-sdk echo tool driven by the same client, in interleaved blocks.
func benchLatency(ctx context.Context, b *bench) error {
	ws, _, err := workspace.Init(b.tempDir("latency"))
	if err != nil {
		return err
	}
	n := 2000
	if b.quick {
		n = 200
	}
	b.printf("## Tool-call latency over stdio (issue: the seven MCP tools)\n\n`clumsies serve` driven by the go-sdk client over a real pipe; %d calls of each kind in interleaved blocks of %d, after a warm-up. Baseline: a bare go-sdk server with one echo tool, same client, same run. memload of one workflow (delta hit: known hash, content null; miss: \"\" known hash, content sent); memref of one constraint (an event that changes no catalog state: answered once it is durable).\n\n", n, n/8)
	b.printf("| sync | call | p50 µs | p99 µs | p50 vs echo | p50 vs sized echo | server CPU µs/call |\n|---|---|---|---|---|---|---|\n")
	for _, mode := range []string{"always", "interval"} {
		lat, cpu, err := latencyRound(ctx, b, ws.Root, mode, n)
		if err != nil {
			return err
		}
		echo50 := us(percentile(lat["echo"], 50))
		sized50 := us(percentile(lat[sizedEcho], 50))
		for _, k := range []string{"echo", sizedEcho, "memload (delta hit)", "memload (miss)", "memref"} {
			p50 := us(percentile(lat[k], 50))
			note := fmt.Sprintf("%.2fx", p50/echo50)
			if mode == "interval" && strings.HasPrefix(k, "memload") {
				note += " (target ≤ 1.5x: " + verdict(p50/echo50 <= 1.5) + ")"
			}
			vsSized := ""
			if strings.HasPrefix(k, "memload") {
				vsSized = fmt.Sprintf("%.2fx", p50/sized50)
				if mode == "interval" && k == "memload (delta hit)" {
					vsSized += " (target ≤ 1.1x: " + verdict(p50/sized50 <= 1.1) + ")"
				}
			}
			b.printf("| %s | %s | %.0f | %.0f | %s | %s | %.0f |\n", mode, k, p50, us(percentile(lat[k], 99)), note, vsSized, us(cpu[k])/float64(len(lat[k])))
		}
	}
	b.printf("\n")
	return nil
}

// sizedEcho names the echo call whose answer is as large as a memload
// delta hit's: the baseline of issue 11's per-call target.
const sizedEcho = "echo (memload-sized answer)"

// latencyRound returns the latencies of every kind of call and the CPU
// time (user and system) its server process spent on them.
func latencyRound(ctx context.Context, b *bench, dir, mode string, n int) (map[string][]time.Duration, map[string]time.Duration, error) {
	srv, err := start(ctx, b.bin, "serve", "--workspace", dir, "--sync", mode)
	if err != nil {
		return nil, nil, err
	}
	defer srv.close()
	echo, err := start(ctx, b.echo)
	if err != nil {
		return nil, nil, err
	}
	defer echo.close()
	if err := setupSession(ctx, srv, "bench-latency-"+mode); err != nil {
		return nil, nil, err
	}
	wf, err := firstID(ctx, srv, "workflow")
	if err != nil {
		return nil, nil, err
	}
	res, err := srv.call(ctx, "memload", map[string]any{"ids": []string{wf}, "knownHashes": map[string]any{wf: ""}})
	if err != nil {
		return nil, nil, err
	}
	hash := res["items"].([]any)[0].(map[string]any)["hash"].(string)
	hit, err := srv.call(ctx, "memload", map[string]any{"ids": []string{wf}, "knownHashes": map[string]any{wf: hash}})
	if err != nil {
		return nil, nil, err
	}
	// An echo whose answer is as large as a memload delta hit's, to tell
	// the cost of the answer's size from the cost of our work.
	sized, _ := json.Marshal(hit)
	kinds := []struct {
		name string
		p    *proc
		tool string
		args any
	}{
		{"echo", echo, "echo", map[string]any{"text": "hello"}},
		{sizedEcho, echo, "echo", map[string]any{"text": string(sized)}},
		{"memload (delta hit)", srv, "memload", map[string]any{"ids": []string{wf}, "knownHashes": map[string]any{wf: hash}}},
		{"memload (miss)", srv, "memload", map[string]any{"ids": []string{wf}, "knownHashes": map[string]any{wf: ""}}},
		{"memref", srv, "memref", map[string]any{"refs": []any{map[string]any{"ruleId": wf, "constraintId": "Steps/1"}}}},
	}
	for _, k := range kinds { // warm up
		if _, err := k.p.timed(ctx, 100, k.tool, k.args); err != nil {
			return nil, nil, err
		}
	}
	out := map[string][]time.Duration{}
	cpu := map[string]time.Duration{}
	block := n / 8
	for r := 0; r < 8; r++ {
		for _, k := range kinds {
			before := cpuTime(k.p.cmd.Process.Pid)
			d, err := k.p.timed(ctx, block, k.tool, k.args)
			if err != nil {
				return nil, nil, err
			}
			cpu[k.name] += cpuTime(k.p.cmd.Process.Pid) - before
			out[k.name] = append(out[k.name], d...)
		}
	}
	return out, cpu, nil
}

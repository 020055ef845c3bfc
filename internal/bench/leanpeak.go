package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// leanPeakRounds is how many pairs of fresh servers (telemetry off and
// on) the lean section reads the peak RSS of: one peak moves by 2-3 MiB
// from run to run (a 4 MiB buffer of nats-server's for the stream's last
// file is resident whole when it lands on heap memory used before, which
// Go clears; BENCHMARKS.md, "Serve's memory and the long run (issue
// 35)"), more than the targets' margins, so the figure is the median.
const leanPeakRounds = 3

// leanCopies copies the off and on workspaces n times, as they are
// before any server of the section has served them, so that every round
// starts from the same ledger.
func leanCopies(b *bench, off, on string, n int) ([][2]string, error) {
	var out [][2]string
	for range n {
		var pair [2]string
		for i, src := range []string{off, on} {
			dst, err := copyWorkspace(b, src)
			if err != nil {
				return nil, err
			}
			pair[i] = dst
		}
		out = append(out, pair)
	}
	return out, nil
}

// copyWorkspace copies the workspace src into a new folder and returns
// the copy's root.
func copyWorkspace(b *bench, src string) (string, error) {
	dst := filepath.Join(b.tempDir("lean-copy"), "ws")
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		return "", fmt.Errorf("copy the workspace %s: %w", src, err)
	}
	return dst, nil
}

// leanPeak serves the off and on workspaces with two fresh servers, makes
// as many memloads of each as leanRound does, alternating, and returns
// their peak RSS in KiB.
func leanPeak(ctx context.Context, b *bench, offDir, onDir string, loads int) (off, on int64, err error) {
	var steps []leanStep
	var servers []*proc
	for _, s := range []struct{ name, dir string }{{"off", offDir}, {"on", onDir}} {
		p, err := start(ctx, b.bin, "serve", "--workspace", s.dir, "--sync", "interval")
		if err != nil {
			return 0, 0, err
		}
		defer p.close()
		servers = append(servers, p)
		hit, _, err := leanHit(ctx, p, "bench-lean-peak-"+s.name)
		if err != nil {
			return 0, 0, err
		}
		steps = append(steps, leanStep{"memload " + s.name, p, "memload", hit, loads})
	}
	res := leanResult{lat: map[string][]time.Duration{}, cpu: map[string]time.Duration{}}
	if err := res.alternate(ctx, steps); err != nil {
		return 0, 0, err
	}
	return peakRSS(servers[0].cmd.Process.Pid), peakRSS(servers[1].cmd.Process.Pid), nil
}

// medianPeak is the median of peaks in KiB, and the peaks as text, MiB.
func medianPeak(peaks []int64) (int64, string) {
	s := slices.Clone(peaks)
	slices.Sort(s)
	text := ""
	for i, p := range peaks {
		if i > 0 {
			text += ", "
		}
		text += fmt.Sprintf("%.1f", float64(p)/1024)
	}
	return s[len(s)/2], text
}

// leanHit binds a session on p and asks memdisc for the lean catalog's
// tagged rules; it returns the arguments of a memload of the first that
// hits (its hash known) and memdisc's answer.
func leanHit(ctx context.Context, p *proc, session string) (hit, disc map[string]any, err error) {
	if err := setupSession(ctx, p, session); err != nil {
		return nil, nil, err
	}
	if disc, err = p.call(ctx, "memdisc", map[string]any{"query": leanTag}); err != nil {
		return nil, nil, err
	}
	items, _ := disc["items"].([]any)
	if len(items) != leanRules/leanEvery {
		return nil, nil, fmt.Errorf("memdisc %q found %d items, want %d", leanTag, len(items), leanRules/leanEvery)
	}
	first := items[0].(map[string]any)
	id := first["id"].(string)
	return map[string]any{"ids": []string{id}, "knownHashes": map[string]any{id: first["hash"]}}, disc, nil
}

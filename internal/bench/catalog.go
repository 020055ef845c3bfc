package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/clumsies/clumsies/workspace"
)

// benchCatalog measures memdisc and memload over stdio on a catalog of
// 10,000 rules, and the peak RSS of the serving process.
func benchCatalog(ctx context.Context, b *bench) error {
	rules, n := 10_000, 1000
	if b.quick {
		rules, n = 1000, 100
	}
	ws, _, err := workspace.Init(b.tempDir("catalog"))
	if err != nil {
		return err
	}
	if err := writeRules(ws.ContentRoot(), rules); err != nil {
		return err
	}
	b.printf("## A catalog of %d rules (issue: the seven MCP tools)\n\n`clumsies serve` over stdio, %d calls of each kind, interleaved. memdisc with a query matching 11 rules; memdisc with no filter returns every rule (about %d KiB of JSON); memload of one rule.\n\n", rules, n, rules*230/1024)
	b.printf("| sync | call | p50 µs | p99 µs | target |\n|---|---|---|---|---|\n")
	for _, mode := range []string{"interval", "always"} {
		startAt := time.Now()
		srv, err := start(ctx, b.bin, "serve", "--workspace", ws.Root, "--sync", mode)
		if err != nil {
			return err
		}
		if err := setupSession(ctx, srv, "bench-catalog-"+mode); err != nil {
			srv.close()
			return err
		}
		ready := time.Since(startAt)
		lat, err := catalogRound(ctx, srv, n)
		rss := peakRSS(srv.cmd.Process.Pid)
		srv.close()
		if err != nil {
			return err
		}
		for _, k := range []string{"memdisc (query)", "memdisc (all)", "memload (one id, miss)", "memload (one id, hit)"} {
			target := ""
			switch k {
			case "memdisc (query)":
				target = "p50 < 2 ms: " + verdict(percentile(lat[k], 50) < 2*time.Millisecond)
			case "memload (one id, miss)", "memload (one id, hit)":
				target = "p50 < 1 ms: " + verdict(percentile(lat[k], 50) < time.Millisecond)
			}
			b.printf("| %s | %s | %.0f | %.0f | %s |\n", mode, k, us(percentile(lat[k], 50)), us(percentile(lat[k], 99)), target)
		}
		b.printf("| %s | serve start to first answer (publishes the catalog on the first run) | %.0f ms | | |\n", mode, ms(ready))
		b.printf("| %s | serve peak RSS | %.1f MiB | | |\n", mode, float64(rss)/1024)
	}
	b.printf("\n")
	return nil
}

func catalogRound(ctx context.Context, srv *proc, n int) (map[string][]time.Duration, error) {
	res, err := srv.call(ctx, "memdisc", map[string]any{"query": "RULE0123"})
	if err != nil {
		return nil, err
	}
	items, _ := res["items"].([]any)
	if len(items) == 0 {
		return nil, fmt.Errorf("memdisc query found nothing")
	}
	id := items[0].(map[string]any)["id"].(string)
	hash := items[0].(map[string]any)["hash"].(string)
	kinds := []struct {
		name string
		tool string
		args any
		n    int
	}{
		{"memdisc (query)", "memdisc", map[string]any{"query": "RULE0123"}, n},
		{"memdisc (all)", "memdisc", map[string]any{}, max(n/10, 10)},
		{"memload (one id, miss)", "memload", map[string]any{"ids": []string{id}, "knownHashes": map[string]any{id: ""}}, n},
		{"memload (one id, hit)", "memload", map[string]any{"ids": []string{id}, "knownHashes": map[string]any{id: hash}}, n},
	}
	out := map[string][]time.Duration{}
	for r := 0; r < 5; r++ {
		for _, k := range kinds {
			d, err := srv.timed(ctx, k.n/5, k.tool, k.args)
			if err != nil {
				return nil, err
			}
			out[k.name] = append(out[k.name], d...)
		}
	}
	return out, nil
}

// writeRules writes n rule files in 100 groups.
func writeRules(root string, n int) error {
	for i := 0; i < n; i++ {
		p := filepath.Join(root, "rules", fmt.Sprintf("g%02d", i%100), fmt.Sprintf("RULE%04d.md", i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		body := fmt.Sprintf("# Rule %d\n\nHow the team handles concern number %d in group %d.\n\n## Steps\n\n- Check the inputs of step %d before use.\n- Log what was decided and why.\n- Keep the change small.\n\n## Notes\n\nRule %d exists because of an incident in group %d.\n", i, i, i%100, i, i, i%100)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			return err
		}
	}
	return nil
}

package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/clumsies/clumsies/workspace"
)

// benchStartup measures spawn to initialize answered: `clumsies serve`
// against the bare go-sdk echo server, spawned alternately by the same
// client, on the starter workspace and on one of 1,000 rules.
func benchStartup(ctx context.Context, b *bench) error {
	n := 30
	if b.quick {
		n = 6
	}
	b.printf("## Spawn to initialize over stdio (issue: fast from the first byte)\n\nTime from spawning the server to the MCP client's initialize answered (go-sdk client over a real pipe), %d spawns of each, `clumsies serve` and the bare go-sdk echo server alternating, same run. serve answers initialize while it opens the workspace in the background.\n\n", n)
	b.printf("| workspace | serve p50 ms | echo p50 ms | serve / echo |\n|---|---|---|---|\n")
	var starter time.Duration
	for _, rules := range []int{0, 1000} {
		dir, err := startupWorkspace(ctx, b, rules)
		if err != nil {
			return err
		}
		var serve, echo []time.Duration
		for range n {
			d, err := spawnToInit(ctx, b.bin, "serve", "--workspace", dir)
			if err != nil {
				return err
			}
			serve = append(serve, d)
			if d, err = spawnToInit(ctx, b.echo); err != nil {
				return err
			}
			echo = append(echo, d)
		}
		s50, e50 := percentile(serve, 50), percentile(echo, 50)
		name, note := "starter (3 files)", ""
		if rules > 0 {
			name = fmt.Sprintf("%d rules", rules)
			note = fmt.Sprintf(" (target ≤ 1.5x: %s; %.2fx the starter's)", verdict(float64(s50) <= 1.5*float64(e50)), float64(s50)/float64(starter))
		} else {
			starter = s50
		}
		b.printf("| %s | %.1f | %.1f | %.2fx%s |\n", name, ms(s50), ms(e50), float64(s50)/float64(e50), note)
	}
	b.printf("\n")
	return nil
}

// spawnToInit spawns bin and returns the time until initialize is answered.
func spawnToInit(ctx context.Context, bin string, args ...string) (time.Duration, error) {
	t0 := time.Now()
	p, err := start(ctx, bin, args...)
	if err != nil {
		return 0, err
	}
	d := time.Since(t0)
	p.close()
	return d, nil
}

// startupWorkspace makes a published workspace with the starter content
// and rules more rules.
func startupWorkspace(ctx context.Context, b *bench, rules int) (string, error) {
	ws, _, err := workspace.Init(b.tempDir(fmt.Sprintf("startup-%d", rules)))
	if err != nil {
		return "", err
	}
	dir := filepath.Join(ws.ContentRoot(), "rules", "many")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	for i := range rules {
		body := fmt.Sprintf("# R%d\n\nRule number %d.\n\n## Steps\n\n- One\n- Two\n", i, i)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("R%04d.md", i)), []byte(body), 0o644); err != nil {
			return "", err
		}
	}
	if out, err := exec.CommandContext(ctx, b.bin, "publish", "--workspace", ws.Root).CombinedOutput(); err != nil {
		return "", fmt.Errorf("publish: %v: %s", err, out)
	}
	return ws.Root, nil
}

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
// (which answers initialize before the workspace opens) against the bare
// go-sdk echo server, spawned alternately by the same client, on the
// starter workspace and on catalogs of 1,000 and 50,000 rules; and, so
// that nothing is hidden, spawn to the first tool call answered
// (memsetup, which waits for the workspace to open; the echo server's
// echo).
func benchStartup(ctx context.Context, b *bench) error {
	n, sizes := 30, []int{0, 1000, 50000}
	if b.quick {
		n, sizes = 6, []int{0, 1000}
	}
	b.printf("## Spawn to initialize over stdio (issue: fast from the first byte)\n\nTime from spawning the server to the MCP client's initialize answered (go-sdk client over a real pipe), %d spawns of each, `clumsies serve` and the bare go-sdk echo server alternating, same run. `clumsies serve` answers initialize from the META_PROMPT while it opens the workspace; the first tool call waits for it. Spawn to the first call answered: memsetup for clumsies, echo for the echo server.\n\n", n)
	b.printf("| workspace | serve p50 ms | echo p50 ms | serve / echo | first call: serve p50 ms | first call: echo p50 ms |\n|---|---|---|---|---|---|\n")
	var starter time.Duration
	for _, rules := range sizes {
		dir, err := startupWorkspace(ctx, b, rules)
		if err != nil {
			return err
		}
		var serve, echo, serveFirst, echoFirst []time.Duration
		for range n {
			d, f, err := spawnToInit(ctx, "memsetup", map[string]any{"session_id": "startup", "knownHashes": map[string]string{"META_PROMPT.md": ""}}, b.bin, "serve", "--workspace", dir)
			if err != nil {
				return err
			}
			serve, serveFirst = append(serve, d), append(serveFirst, f)
			if d, f, err = spawnToInit(ctx, "echo", map[string]any{"text": "x"}, b.echo); err != nil {
				return err
			}
			echo, echoFirst = append(echo, d), append(echoFirst, f)
		}
		s50, e50 := percentile(serve, 50), percentile(echo, 50)
		name, note := "starter (3 files)", ""
		switch {
		case rules == 0:
			starter = s50
		case rules == 1000:
			name = "1000 rules"
			note = fmt.Sprintf(" (target ≤ 2.5x: %s)", verdict(float64(s50) <= 2.5*float64(e50)))
		default:
			name = fmt.Sprintf("%d rules", rules)
			note = fmt.Sprintf(" (%.2fx the starter's; target ≤ 2x the 1k figure)", float64(s50)/float64(starter))
		}
		b.printf("| %s | %.1f | %.1f | %.2fx%s | %.1f | %.1f |\n", name, ms(s50), ms(e50), float64(s50)/float64(e50), note, ms(percentile(serveFirst, 50)), ms(percentile(echoFirst, 50)))
	}
	b.printf("\n")
	return nil
}

// spawnToInit spawns bin and returns the time until initialize is
// answered and, when tool is set, until a first call of it is answered.
func spawnToInit(ctx context.Context, tool string, args any, bin string, argv ...string) (init, first time.Duration, err error) {
	t0 := time.Now()
	p, err := start(ctx, bin, argv...)
	if err != nil {
		return 0, 0, err
	}
	defer p.close()
	init = time.Since(t0)
	if tool != "" {
		if _, err := p.call(ctx, tool, args); err != nil {
			return 0, 0, err
		}
		first = time.Since(t0)
	}
	return init, first, nil
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

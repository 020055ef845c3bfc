package main

import (
	"context"
	"fmt"
	"os/exec"
	"syscall"
	"time"

	embeddednats "github.com/clumsies/clumsies/embedded-nats"
	"github.com/clumsies/clumsies/node"
	"github.com/clumsies/clumsies/workspace"
)

// benchColdStart times `clumsies stats` as a fresh process on a workspace
// holding 100k events: once right after the events were written (it
// catches the projections up), then with the projections current.
func benchColdStart(ctx context.Context, b *bench) error {
	n := 100_000
	if b.quick {
		n = 10_000
	}
	ws, _, err := workspace.Init(b.tempDir("coldstart"))
	if err != nil {
		return err
	}
	if err := fillWorkspace(ctx, ws, n); err != nil {
		return err
	}
	first, firstRSS, err := timeRun(b.bin, "stats", "--json", "--workspace", ws.Root)
	if err != nil {
		return err
	}
	var runs []float64
	var peak int64
	for i := 0; i < 5; i++ {
		d, rss, err := timeRun(b.bin, "stats", "--json", "--workspace", ws.Root)
		if err != nil {
			return err
		}
		runs = append(runs, ms(d))
		peak = max(peak, rss)
	}
	b.printf("## Cold start of `clumsies stats` (issue: ledger core)\n\nA fresh process on a workspace of %d events (whole process: start, lock, embedded server, stream, pebble, print).\n\n", n)
	b.printf("| run | wall ms | peak RSS MiB |\n|---|---|---|\n")
	b.printf("| first, projections catch up from the stream | %.0f | %.1f |\n", ms(first), float64(firstRSS)/1024)
	b.printf("| projections current (median of 5) | %.0f | %.1f |\n\n", median(runs), float64(peak)/1024)
	return nil
}

// fillWorkspace appends n sample events to a workspace's stream.
func fillWorkspace(ctx context.Context, ws *workspace.Workspace, n int) error {
	nd, err := node.Open(ctx, ws, node.Options{Sync: embeddednats.SyncInterval})
	if err != nil {
		return err
	}
	defer nd.Close()
	return fill(ctx, nd.Conn, ws.ID(), 0, n)
}

// timeRun runs the binary to completion and returns its wall time and peak
// RSS in KiB.
func timeRun(bin string, args ...string) (time.Duration, int64, error) {
	cmd := exec.Command(bin, args...)
	start := time.Now()
	out, err := cmd.CombinedOutput()
	took := time.Since(start)
	if err != nil {
		return 0, 0, fmt.Errorf("%s %v: %w: %s", bin, args, err, out)
	}
	ru, _ := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if ru == nil {
		return took, 0, nil
	}
	return took, int64(ru.Maxrss), nil // an int32 on 32-bit systems
}

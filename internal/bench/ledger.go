package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/cockroachdb/pebble/v2/vfs"

	embeddednats "github.com/clumsies/clumsies/embedded-nats"
	"github.com/clumsies/clumsies/node"
	"github.com/clumsies/clumsies/projections"
	"github.com/clumsies/clumsies/proof/ledger"
	"github.com/clumsies/clumsies/workspace"
)

// benchChain measures what the ledger's hash chain costs: appends
// through a workspace owner (projector running, checkpoints every 1000
// events) and rebuilds, with the chain and without it (NoChain), in
// alternating rounds of the same run.
func benchChain(ctx context.Context, b *bench) error {
	n, m := 20_000, 200_000
	if b.quick {
		n, m = 2_000, 20_000
	}
	b.printf("## Hash chain cost (issue 15: a ledger that proves itself)\n\n")
	b.printf("Appends: %d sequential `Handle.Record` calls of the mixed events on a workspace owner with `--sync=interval`, its projector running; with the chain the projector hashes every stored message and the owner appends a `ledger.checkpoint` every 1000 events. Rebuild: `projections.Rebuild` of %d events from JetStream into pebble on an in-memory file system. Without: the same with `NoChain`. Appends: median of %d alternating rounds; rebuilds: median of %d rounds, which of the two goes first alternating.\n\n", n, m, rounds(b), 2*rounds(b)-1)
	b.printf("| | with chain (events/s) | without (events/s) | with / without | target ≥ 0.95x |\n|---|---|---|---|---|\n")
	var with, without []float64
	for r := 0; r < rounds(b); r++ {
		for _, noChain := range []bool{false, true} {
			rate, err := chainAppendRound(ctx, b, n, noChain)
			if err != nil {
				return err
			}
			if noChain {
				without = append(without, rate)
			} else {
				with = append(with, rate)
			}
		}
	}
	ratio := median(with) / median(without)
	b.printf("| append | %.0f | %.0f | %.3fx | %s |\n", median(with), median(without), ratio, verdict(ratio >= 0.95))

	s, err := newStore(ctx, b.tempDir("chain-rebuild"), embeddednats.SyncInterval)
	if err != nil {
		return err
	}
	defer s.close()
	if err := fill(ctx, s.nc, s.ws, 0, m); err != nil {
		return err
	}
	with, without = nil, nil
	for r := 0; r < 2*rounds(b)-1; r++ {
		for _, noChain := range []bool{r%2 == 1, r%2 == 0} {
			// Pebble in memory: the disk's write-back from the round
			// before moved these figures by ±20% from run to run.
			start := time.Now()
			st, err := projections.Rebuild(ctx, s.log, "/projections", projections.Options{FS: vfs.NewMem(), NoChain: noChain}, nil)
			if err != nil {
				return err
			}
			rate := float64(m) / time.Since(start).Seconds()
			st.Close()
			if noChain {
				without = append(without, rate)
			} else {
				with = append(with, rate)
			}
		}
	}
	ratio = median(with) / median(without)
	b.printf("| rebuild | %.0f | %.0f | %.3fx | %s |\n\n", median(with), median(without), ratio, verdict(ratio >= 0.95))
	return nil
}

// chainAppendRound appends n events through a fresh workspace's owner
// and returns events/s.
func chainAppendRound(ctx context.Context, b *bench, n int, noChain bool) (float64, error) {
	ws, _, err := workspace.Init(b.tempDir("chain-append"))
	if err != nil {
		return 0, err
	}
	h, err := node.Attach(ctx, ws, node.Options{Sync: embeddednats.SyncInterval, CheckpointEvery: node.DefaultCheckpointEvery, NoChain: noChain})
	if err != nil {
		return 0, err
	}
	defer h.Close()
	start := time.Now()
	for i := 0; i < n; i++ {
		if err := h.Record(ctx, sampleEvent(ws.ID(), i)); err != nil {
			return 0, fmt.Errorf("record %d: %w", i, err)
		}
	}
	if _, err := h.CatchUp(ctx); err != nil {
		return 0, err
	}
	return float64(n) / time.Since(start).Seconds(), nil
}

// benchExport exports a ledger of a million events to a file and imports
// it into a fresh store.
func benchExport(ctx context.Context, b *bench) error {
	n := 1_000_000
	if b.quick {
		n = 50_000
	}
	src, err := newStore(ctx, b.tempDir("export-src"), embeddednats.SyncInterval)
	if err != nil {
		return err
	}
	defer src.close()
	if err := fill(ctx, src.nc, src.ws, 0, n); err != nil {
		return err
	}
	file := filepath.Join(b.tempDir("export-file"), "ledger.jsonl.gz")
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	start := time.Now()
	exp, err := ledger.Export(ctx, src.log, src.ws, 1, uint64(n), f, nil)
	if err == nil {
		err = f.Close()
	}
	if err != nil {
		return err
	}
	exportTook := time.Since(start)
	info, err := os.Stat(file)
	if err != nil {
		return err
	}

	// The import goes into a store of the same workspace.
	dst, err := newStoreOf(ctx, b.tempDir("export-dst"), src.ws)
	if err != nil {
		return err
	}
	defer dst.close()
	open := func() (io.ReadCloser, error) { return os.Open(file) }
	start = time.Now()
	imp, err := ledger.Import(ctx, open, src.ws, dst.log, nil)
	if err != nil {
		return err
	}
	importTook := time.Since(start)
	start = time.Now()
	st, err := projections.Rebuild(ctx, dst.log, "/m", projections.Options{FS: vfs.NewMem()}, nil)
	if err != nil {
		return err
	}
	st.Close()
	replayTook := time.Since(start)
	if imp.Digest != exp.Digest {
		return fmt.Errorf("import: chain digest %s, the export's %s", imp.Digest, exp.Digest)
	}
	b.printf("## Export and import (issue 15: a ledger that proves itself)\n\n")
	b.printf("%d events of the mixed ledger: `ledger.Export` to a gzip file (%.1f MB, %.0f bytes an event), then `ledger.Import` into a fresh store of the same workspace (`--sync=interval`, as `clumsies import` runs): a first pass over the file checks the chain, a second stores every message at its sequence. `clumsies import` then rebuilds the read models (a separate row).\n\n",
		n, float64(info.Size())/1e6, float64(info.Size())/float64(n))
	b.printf("| | seconds | events/s |\n|---|---|---|\n")
	b.printf("| export | %.2f | %.0f |\n| import (check + store) | %.2f | %.0f |\n| rebuild after the import | %.2f | %.0f |\n\n",
		exportTook.Seconds(), float64(n)/exportTook.Seconds(), importTook.Seconds(), float64(n)/importTook.Seconds(), replayTook.Seconds(), float64(n)/replayTook.Seconds())
	b.printf("Chain digest of both: %s.\n\n", imp.Digest)
	return nil
}

package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	embeddednats "github.com/clumsies/clumsies/embedded-nats"
	"github.com/clumsies/clumsies/events/natsjs"
	"github.com/clumsies/clumsies/workspace"
)

// The last-block section's ledger: lastBlockFill memloads after the lean
// catalog's publish, about 5 MB of events.
const (
	lastBlockFill  = 6000
	lastBlockLoads = 300
)

// benchLastBlock measures what the stream's last file costs a serving
// process that starts on a ledger that has been used: nats-server reads
// the whole of the last block in at the first append. Two like
// workspaces, filled by serve with the same memloads: one whose stream
// has the settings of this build (4 MB files), one whose stream has an
// earlier build's (no limit per subject, so 8 MB files; serve sets the
// limit when it opens it, which takes effect from the server's next
// start, and the section takes it off again before each start). Then a
// serve on each answers memsetup and lastBlockLoads memloads: its peak
// resident set and anonymous memory.
func benchLastBlock(ctx context.Context, b *bench) error {
	type variant struct {
		name    string
		earlier bool
	}
	b.printf("## The stream's last file (issue: every session's own serve)\n\n`clumsies serve --sync interval` on the lean section's catalog (%d rules) after %d memloads filled its ledger; then a new serve on it answers memsetup and %d memloads. The stream as this build makes it (files of at most 4 MB) beside one as an earlier build made it (no limit per subject: 8 MB files), the same ledger otherwise.\n\n",
		leanRules, lastBlockFill, lastBlockLoads)
	b.printf("| stream | last file MB | serve peak RSS MiB | RssAnon / RssFile after the memloads MiB |\n|---|---|---|---|\n")
	for _, v := range []variant{{"8 MB files (an earlier build's stream)", true}, {"4 MB files (this build)", false}} {
		dir, err := leanWorkspace(ctx, b, "")
		if err != nil {
			return err
		}
		if v.earlier {
			if err := noLimitPerSubject(ctx, dir); err != nil {
				return err
			}
		}
		if err := serveLoads(ctx, b, dir, lastBlockFill); err != nil {
			return err
		}
		last, err := lastBlockSize(dir)
		if err != nil {
			return err
		}
		if v.earlier {
			if err := noLimitPerSubject(ctx, dir); err != nil {
				return err
			}
		}
		srv, err := start(ctx, b.bin, "serve", "--workspace", dir, "--sync", "interval")
		if err != nil {
			return err
		}
		m, err := loadsOn(ctx, srv, "bench-lastblock", lastBlockLoads)
		peak := peakRSS(srv.cmd.Process.Pid)
		srv.close()
		if err != nil {
			return err
		}
		b.printf("| %s | %.1f | %.1f | %.1f / %.1f |\n", v.name, float64(last)/1e6, mib(peak), mib(m.anon>>10), mib(m.file>>10))
	}
	b.printf("\nThe last file's size is before the measured serve's memloads.\n\n")
	return nil
}

// serveLoads runs a serve on dir for memsetup and n memloads.
func serveLoads(ctx context.Context, b *bench, dir string, n int) error {
	srv, err := start(ctx, b.bin, "serve", "--workspace", dir, "--sync", "interval")
	if err != nil {
		return err
	}
	defer srv.close()
	_, err = loadsOn(ctx, srv, "bench-lastblock-fill", n)
	return err
}

// loadsOn answers memsetup of session and n memloads (delta hits) on srv, and
// returns its memory after them.
func loadsOn(ctx context.Context, srv *proc, session string, n int) (memSample, error) {
	if err := setupSession(ctx, srv, session); err != nil {
		return memSample{}, err
	}
	disc, err := srv.call(ctx, "memdisc", map[string]any{"query": leanTag})
	if err != nil {
		return memSample{}, err
	}
	item := disc["items"].([]any)[0].(map[string]any)
	load := map[string]any{"ids": []string{item["id"].(string)}, "knownHashes": map[string]any{item["id"].(string): item["hash"]}}
	if _, err := srv.timed(ctx, n, "memload", load); err != nil {
		return memSample{}, err
	}
	return sampleMemory(srv.cmd.Process.Pid, "")
}

// noLimitPerSubject gives the workspace's stream an earlier build's
// settings: no limit per subject.
func noLimitPerSubject(ctx context.Context, dir string) error {
	ws, err := workspace.Open(dir)
	if err != nil {
		return err
	}
	js, _, stop, err := startJetStream(&embeddednats.Server{Dir: ws.StateDir()})
	if err != nil {
		return err
	}
	defer stop()
	st, err := js.Stream(ctx, natsjs.StreamName(ws.ID()))
	if err != nil {
		return err
	}
	cfg := st.CachedInfo().Config
	cfg.MaxMsgsPerSubject = -1
	if _, err := js.UpdateStream(ctx, cfg); err != nil {
		return fmt.Errorf("take the limit per subject off: %w", err)
	}
	return nil
}

// lastBlockSize returns the size of the workspace stream's last file.
func lastBlockSize(dir string) (int64, error) {
	ws, err := workspace.Open(dir)
	if err != nil {
		return 0, err
	}
	blocks, err := filepath.Glob(filepath.Join(embeddednats.StreamDir(ws.StateDir(), natsjs.StreamName(ws.ID())), "msgs", "*.blk"))
	if err != nil || len(blocks) == 0 {
		return 0, fmt.Errorf("the stream's files: %v, %v", blocks, err)
	}
	var last string
	var lastNum int
	for _, p := range blocks {
		// The files are numbered in the order they are written: N.blk.
		num, err := strconv.Atoi(strings.TrimSuffix(filepath.Base(p), ".blk"))
		if err != nil {
			return 0, fmt.Errorf("the stream's file %s: %w", p, err)
		}
		if num > lastNum {
			last, lastNum = p, num
		}
	}
	info, err := os.Stat(last)
	if err != nil {
		return 0, err
	}
	return info.Size(), nil
}

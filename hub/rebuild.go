package hub

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// projectionsDir is the folder of the hub's read models.
func projectionsDir(cfg *Config) string { return filepath.Join(cfg.DataDir(), "projections") }

// Rebuild throws away the read models of the stopped hub of cfg and has
// them apply the aggregate again from its first message: the counters,
// the chains, the evidence and the review queue come back as the hub had
// kept them (the projector is deterministic). It returns the aggregate
// sequence applied. The hub must not be running: its read models are
// locked while it runs, and Rebuild then fails without changing them.
// On an error the read models before the rebuild are put back.
func Rebuild(ctx context.Context, cfg *Config, logger *slog.Logger) (uint64, error) {
	dir := projectionsDir(cfg)
	p, err := openProjector(dir, nil, slog.New(slog.DiscardHandler))
	if err != nil {
		return 0, fmt.Errorf("rebuild the hub's read models: %w (stop the hub first)", err)
	}
	if err := p.close(); err != nil {
		return 0, fmt.Errorf("rebuild the hub's read models: %w", err)
	}
	old := dir + ".old"
	if err := os.RemoveAll(old); err != nil {
		return 0, fmt.Errorf("rebuild the hub's read models: %w", err)
	}
	if err := os.Rename(dir, old); err != nil {
		return 0, fmt.Errorf("rebuild the hub's read models: %w", err)
	}
	applied, err := replayAggregate(ctx, cfg, logger)
	if err != nil {
		restore := errors.Join(os.RemoveAll(dir), os.Rename(old, dir))
		return 0, errors.Join(fmt.Errorf("rebuild the hub's read models: %w", err), restore)
	}
	return applied, os.RemoveAll(old)
}

// replayAggregate starts the hub of cfg and waits until its projector
// has applied what the aggregate held when it started.
func replayAggregate(ctx context.Context, cfg *Config, logger *slog.Logger) (applied uint64, err error) {
	h, err := Start(ctx, cfg, logger)
	if err != nil {
		return 0, err
	}
	defer func() { err = errors.Join(err, h.Close()) }()
	return h.caughtUp(ctx)
}

// caughtUp waits until the projector has applied what the aggregate
// holds now, and returns the sequence it applied, or ctx's error.
func (h *Hub) caughtUp(ctx context.Context) (uint64, error) {
	var last uint64
	err := retry(ctx, func(ctx context.Context) error {
		st, err := h.js.Stream(ctx, hubwire.AggregateStream)
		if err != nil {
			return err
		}
		info, err := st.Info(ctx)
		if err == nil {
			last = info.State.LastSeq
		}
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("read the aggregate: %w", err)
	}
	if err := h.proj.progress.WaitFor(ctx, last); err != nil {
		return 0, fmt.Errorf("apply the aggregate through seq %d (at %d): %w", last, h.proj.Applied(), err)
	}
	return h.proj.Applied(), nil
}

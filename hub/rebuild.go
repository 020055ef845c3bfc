package hub

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"

	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/clumsies/clumsies/hub/hubwire"
	"github.com/clumsies/clumsies/projections/engine"
)

// projectionsDir is the folder of the hub's read models: projections in
// the data folder, or the folder a rebuild fills beside it.
func projectionsDir(cfg *Config) string {
	if cfg.projections != "" {
		return cfg.projections
	}
	return filepath.Join(cfg.DataDir(), "projections")
}

// Rebuild replaces the read models of the stopped hub of cfg by new ones
// that apply the aggregate again from its first message: the counters,
// the chains, the evidence and the review queue come back as the hub had
// kept them (the projector is deterministic). The new read models are
// filled beside the old ones, by the hub started on them, and take their
// place once complete (engine.RebuildBeside); on an error the old ones
// stay. It returns the aggregate sequence applied. The hub must not be
// running: its read models are locked while it runs, and Rebuild then
// fails without changing them.
func Rebuild(ctx context.Context, cfg *Config, logger *slog.Logger) (uint64, error) {
	dir := projectionsDir(cfg)
	p, err := openProjector(dir, nil, slog.New(slog.DiscardHandler))
	if err != nil {
		return 0, fmt.Errorf("rebuild the hub's read models: %w (stop the hub first)", err)
	}
	if err := p.close(); err != nil {
		return 0, fmt.Errorf("rebuild the hub's read models: %w", err)
	}
	var applied uint64
	err = engine.RebuildBeside(ctx, vfs.Default, dir, func(ctx context.Context, next string) error {
		beside := *cfg
		beside.projections = next
		var err error
		applied, err = replayAggregate(ctx, &beside, logger)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("rebuild the hub's read models: %w", err)
	}
	return applied, nil
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

package main

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	embeddednats "github.com/clumsies/clumsies/embedded-nats"
	"github.com/clumsies/clumsies/hub"
	"github.com/clumsies/clumsies/hub/hubwire"
)

// benchHubFill is benchShardFill alone, on nodes of its own.
func benchHubFill(ctx context.Context, b *bench) error {
	b.printf("## Sources per shard\n\n")
	return benchShardFill(ctx, b, registeredNodes())
}

// benchShardFill measures what a join's write costs by its shard's fill
// (one shard stream whose source list grows a node at a time, as the
// joins into one shard make it), and what the aggregate's own list costs
// by the number of shards it sources (written when a join makes a shard),
// with the bench process's RSS per shard stream. nodes gives the first n
// nodes of the run (registered only, as in benchHubSources).
func benchShardFill(ctx context.Context, b *bench, nodes func(n int) ([]hubwire.Node, error)) error {
	fills := []int{25, 50, 100, 200, 300, 400, 500}
	tops := []int{10, 50, 100, 200}
	if b.quick {
		tops = []int{10, 50}
	}
	js, _, stop, err := startJetStream(&embeddednats.Server{Dir: b.tempDir("fill"), Sync: embeddednats.SyncInterval, Domain: hubwire.Domain})
	if err != nil {
		return err
	}
	defer stop()
	b.printf("### A join's write by its shard's fill\n\nOne stream of the aggregate's configuration whose source list grows one node at a time, as the joins into one shard make it (shards hold at most %d nodes, `hub.ShardSize`), written to another embedded server; the median of %d writes ending at each fill. Load average at the start: %s.\n\n| sources in the shard | one join's write (median) | slowest |\n|---|---|---|\n", hub.ShardSize, sourcesWrites, loadAvg())
	written := 0
	write := func(cfg jetstream.StreamConfig) (time.Duration, error) {
		wctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
		defer cancel()
		start := time.Now()
		if _, err := js.CreateOrUpdateStream(wctx, cfg); err != nil {
			return 0, fmt.Errorf("write %d sources: %w", len(cfg.Sources), err)
		}
		return time.Since(start), nil
	}
	for _, fill := range fills {
		all, err := nodes(fill)
		if err != nil {
			return err
		}
		var took []time.Duration
		for k := max(written+1, fill-sourcesWrites+1); k <= fill; k++ {
			d, err := write(hub.AggregateConfig(all[:k], 1))
			if err != nil {
				return err
			}
			if k > fill-sourcesWrites {
				took = append(took, d)
			}
		}
		written = fill
		b.printf("| %d | %.1f ms | %.1f ms |\n", fill, ms(medianDuration(took)), ms(maxDuration(took)))
	}
	if err := js.DeleteStream(ctx, hubwire.AggregateStream); err != nil {
		return fmt.Errorf("delete the shard of the fills: %w", err)
	}
	b.printf("\n| shards the aggregate sources | the write of the aggregate's list when a join makes a shard (median of %d) | bench process RSS per shard stream (empty) |\n|---|---|---|\n", sourcesWrites)
	made := 0
	before := selfRSS()
	for _, top := range tops {
		for made < top {
			made++
			cfg := hub.ShardedConfigs(nil, 1)[0] // the aggregate's configuration
			cfg.Name = hubwire.ShardStream(made)
			if _, err := write(cfg); err != nil {
				return err
			}
		}
		var took []time.Duration
		for s := top - sourcesWrites + 1; s <= top; s++ {
			cfg := hub.ShardedConfigs(nil, 1)[0]
			for k := 1; k <= s; k++ {
				cfg.Sources = append(cfg.Sources, &jetstream.StreamSource{Name: hubwire.ShardStream(k)})
			}
			d, err := write(cfg)
			if err != nil {
				return err
			}
			took = append(took, d)
		}
		b.printf("| %d | %.1f ms | %.2f MiB |\n", top, ms(medianDuration(took)), mib(selfRSS()-before)/float64(made))
	}
	b.printf("\nLoad average at the end: %s.\n\n", loadAvg())
	return nil
}

// maxDuration is the longest of ds.
func maxDuration(ds []time.Duration) time.Duration {
	var m time.Duration
	for _, d := range ds {
		m = max(m, d)
	}
	return m
}

// selfRSS is the bench process's resident set, in KiB, after a
// garbage collection.
func selfRSS() int64 {
	runtime.GC()
	return rssKiB(os.Getpid())
}

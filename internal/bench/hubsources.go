package main

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	embeddednats "github.com/clumsies/clumsies/embedded-nats"
	"github.com/clumsies/clumsies/hub"
	"github.com/clumsies/clumsies/hub/hubwire"
	"github.com/clumsies/clumsies/hublink"
	"github.com/clumsies/clumsies/workspace"
)

// sourcesWrites is how many writes of the aggregate's sources are timed
// at each size; the median is reported.
const sourcesWrites = 3

// benchHubSources measures what one aggregate stream's source list costs
// nats-server as it grows: a hub before the shards wrote the whole list
// at every join, revoke and re-sourcing (hub.AggregateConfig); then the
// same with the shards (benchHubShards). The server is an embedded one with the hub's payload limit
// (8 MiB); the nodes are registered only (offline, as after a restart
// before the links), which is what the write costs whatever the links.
func benchHubSources(ctx context.Context, b *bench) error {
	sizes := []int{1000, 2000, 3000, 4000, 5000, 7500, 10000}
	if b.quick {
		sizes = []int{250, 500, 1000}
	}
	js, nc, stop, err := startJetStream(&embeddednats.Server{Dir: b.tempDir("sources"), Sync: embeddednats.SyncInterval, Domain: hubwire.Domain})
	if err != nil {
		return err
	}
	defer stop()
	b.printf("## Sources per aggregate\n\nThe aggregate's configuration as a hub wrote it before the shards (`hub.AggregateConfig`), with one source per node, written to an embedded server with the hub's payload limit (%d MiB, `max_payload` of the client: %d B); each write adds one node, as a join does; the median of %d writes. hub.MaxNodes is %d. Load average at the start: %s.\n\n", 8, nc.MaxPayload(), sourcesWrites, hub.MaxNodes, loadAvg())
	b.printf("| sources | configuration | per source | one write of the sources (median) | stream info (with every source's state) |\n|---|---|---|---|---|\n")
	var nodes []hubwire.Node
	unsharded := map[int]time.Duration{}
	registered := registeredNodes()
	for _, n := range sizes {
		var took []time.Duration
		var size int
		failed := ""
		for i := range sourcesWrites {
			if nodes, err = registered(n + i); err != nil {
				return err
			}
			cfg := hub.AggregateConfig(nodes, 1)
			raw, _ := json.Marshal(cfg)
			size = len(raw)
			wctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
			start := time.Now()
			_, err := js.CreateOrUpdateStream(wctx, cfg)
			took = append(took, time.Since(start))
			cancel()
			if err != nil {
				failed = err.Error()
				break
			}
		}
		write := fmt.Sprintf("%.0f ms", ms(medianDuration(took)))
		if failed != "" {
			write = "refused: " + failed
		} else {
			unsharded[n] = medianDuration(took)
		}
		info := streamInfoCost(ctx, js, hubwire.AggregateStream)
		b.printf("| %d | %.2f MiB | %d B | %s | %s |\n", len(nodes), float64(size)/(1<<20), size/len(nodes), write, info)
		if failed != "" {
			break
		}
	}
	b.printf("\nLoad average at the end: %s.\n\n", loadAvg())
	if err := benchHubShards(ctx, b, registered, unsharded); err != nil {
		return err
	}
	return benchShardFill(ctx, b, registered)
}

// registeredNodes gives the first n of a list of new nodes of one team,
// registered only (no shard yet, never linked), the list growing as
// more are asked for.
func registeredNodes() func(n int) ([]hubwire.Node, error) {
	var nodes []hubwire.Node
	return func(n int) ([]hubwire.Node, error) {
		for len(nodes) < n {
			id, err := hublink.NewIdentity()
			if err != nil {
				return nil, err
			}
			pub, _ := id.PublicKey()
			nodes = append(nodes, hubwire.Node{ID: id.NodeID, PublicKey: pub, Team: "platform", Workspace: workspace.NewWorkspaceID(), Member: "ann", Joined: time.Now()})
		}
		return nodes[:n], nil
	}
}

// streamInfoCost reads the named stream's info once and says its size
// and time.
func streamInfoCost(ctx context.Context, js jetstream.JetStream, name string) string {
	ictx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	start := time.Now()
	st, err := js.Stream(ictx, name)
	if err != nil {
		return "failed: " + err.Error()
	}
	info, err := st.Info(ictx)
	if err != nil {
		return "failed: " + err.Error()
	}
	took := time.Since(start)
	raw, _ := json.Marshal(info)
	return fmt.Sprintf("%.2f MiB in %.0f ms", float64(len(raw))/(1<<20), ms(took))
}

// medianDuration is the middle of ds.
func medianDuration(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

// benchHubShards measures one join's write of the sources with the
// aggregate sharded (hub.ShardedConfigs: shards of hub.ShardSize nodes,
// the aggregate sourcing the shards), at registered-node counts where the
// unsharded write was measured in the same run (unsharded, by count; 0
// for a count not measured). A join writes the streams whose source list
// it changes: its shard's, and the aggregate's when it makes a new shard.
func benchHubShards(ctx context.Context, b *bench, nodes func(n int) ([]hubwire.Node, error), unsharded map[int]time.Duration) error {
	sizes := []int{1000, 4000, 10000, 20000}
	if b.quick {
		sizes = []int{250, 500, 1000}
	}
	js, _, stop, err := startJetStream(&embeddednats.Server{Dir: b.tempDir("shards"), Sync: embeddednats.SyncInterval, Domain: hubwire.Domain})
	if err != nil {
		return err
	}
	defer stop()
	b.printf("### With shards\n\nThe same nodes placed in shards of %d (`hub.ShardedConfigs`), written to another embedded server: the shards and the aggregate as a hub holds them, then %d joins, each writing what it changes (its shard's list; the aggregate's too when it makes a shard), timed together as one join's write; the joins end at the count in the first column, so they go into a shard that is nearly full (the dearest write of a shard); then one more join, which makes a new shard and writes the aggregate's list too. Against the unsharded write at the same count above.\n\n", hub.ShardSize, sourcesWrites)
	b.printf("| registered nodes | shards | one join's write into a full shard (median) | slowest of the %d | unsharded write, same run | sharded / unsharded | the join that makes a shard | one shard's stream info |\n|---|---|---|---|---|---|---|---|\n", sourcesWrites)
	written := map[string]int{}
	write := func(cfgs []jetstream.StreamConfig) (int, error) {
		n := 0
		for _, cfg := range cfgs {
			if prev, ok := written[cfg.Name]; ok && prev == len(cfg.Sources) {
				continue
			}
			wctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
			_, err := js.CreateOrUpdateStream(wctx, cfg)
			cancel()
			if err != nil {
				return n, fmt.Errorf("write %s: %w", cfg.Name, err)
			}
			written[cfg.Name] = len(cfg.Sources)
			n++
		}
		return n, nil
	}
	join := func(n int) (time.Duration, []jetstream.StreamConfig, error) {
		all, err := nodes(n)
		if err != nil {
			return 0, nil, err
		}
		cfgs := hub.ShardedConfigs(all, 1)
		start := time.Now()
		_, err = write(cfgs)
		return time.Since(start), cfgs, err
	}
	for _, size := range sizes {
		all, err := nodes(size - sourcesWrites)
		if err != nil {
			return err
		}
		if _, err := write(hub.ShardedConfigs(all, 1)); err != nil {
			return err
		}
		var took []time.Duration
		var cfgs []jetstream.StreamConfig
		for i := sourcesWrites - 1; i >= 0; i-- {
			d, c, err := join(size - i)
			if err != nil {
				return err
			}
			took, cfgs = append(took, d), c
		}
		makes, _, err := join(size + 1)
		if err != nil {
			return err
		}
		med, slowest := medianDuration(took), slices.Max(took)
		base, ratio := "not measured", "-"
		if d := unsharded[size]; d > 0 {
			base = fmt.Sprintf("%.0f ms", ms(d))
			ratio = fmt.Sprintf("%.3fx", float64(med)/float64(d))
		}
		b.printf("| %d | %d | %.1f ms | %.1f ms | %s | %s | %.1f ms | %s |\n", size, len(cfgs)-1, ms(med), ms(slowest), base, ratio, ms(makes), streamInfoCost(ctx, js, hubwire.ShardStream(1)))
	}
	b.printf("\nLoad average at the end: %s.\n\n", loadAvg())
	return nil
}

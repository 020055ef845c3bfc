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
	grow := func(n int) error {
		for len(nodes) < n {
			id, err := hublink.NewIdentity()
			if err != nil {
				return err
			}
			pub, _ := id.PublicKey()
			nodes = append(nodes, hubwire.Node{ID: id.NodeID, PublicKey: pub, Team: "platform", Workspace: workspace.NewWorkspaceID(), Member: "ann", Joined: time.Now()})
		}
		return nil
	}
	for _, n := range sizes {
		var took []time.Duration
		var size int
		failed := ""
		for i := range sourcesWrites {
			if err := grow(n + i); err != nil {
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
	return benchHubShards(ctx, b, func(n int) ([]hubwire.Node, error) {
		if err := grow(n); err != nil {
			return nil, err
		}
		return nodes[:n], nil
	}, unsharded)
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

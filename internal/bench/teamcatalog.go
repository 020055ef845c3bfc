package main

import (
	"context"
	"fmt"
	"time"

	embeddednats "github.com/clumsies/clumsies/embedded-nats"
	"github.com/clumsies/clumsies/hub"
	"github.com/clumsies/clumsies/hub/hubwire"
	"github.com/clumsies/clumsies/hublink"
	"github.com/clumsies/clumsies/node"
)

// benchTeamCatalog measures how fast a change of a team's catalog at the
// hub reaches a linked workspace's view (what its agents read), against
// the same change read back at the hub in the same run; the first sync of
// a fresh workspace; and a change right after the hub restarted (the
// workspace kicks its mirror when the link comes back).
func benchTeamCatalog(ctx context.Context, b *bench) error {
	b.printf("## Team catalog (issue 9)\n\nA hub and one linked workspace in this process, loopback leaf link. A catalog of %d rules of 3 KB; each change is a push of one edited rule.\n\n", teamObjects)
	cfg, err := newHubDir(b)
	if err != nil {
		return err
	}
	h, err := hub.Start(ctx, cfg, nil)
	if err != nil {
		return err
	}
	defer func() { h.Close() }()
	files := teamTree(0)
	if _, err := h.PushCatalog(ctx, "bench", files); err != nil {
		return err
	}
	bn, err := joinInProcess(ctx, b, h, "bench")
	if err != nil {
		return err
	}
	id := bn.id
	id.Team = "bench"
	link, err := hublink.New(id, bn.url)
	if err != nil {
		return err
	}
	start := time.Now()
	n, err := node.Open(ctx, bn.ws, node.Options{Sync: embeddednats.SyncInterval, Link: link})
	if err != nil {
		return err
	}
	defer n.Close()
	m, err := h.TeamManifest(ctx, "bench")
	if err != nil {
		return err
	}
	if err := link.WaitRevision(ctx, m.Revision); err != nil {
		return err
	}
	first := time.Since(start)

	rounds := 50
	if b.quick {
		rounds = 10
	}
	var atHub, atWS []time.Duration
	for i := 1; i <= rounds; i++ {
		start := time.Now()
		res, err := h.PushCatalog(ctx, "bench", teamTree(i))
		if err != nil {
			return err
		}
		pushed := time.Since(start)
		if _, err := h.TeamObject(ctx, "bench", res.Published[0].ID); err != nil {
			return err
		}
		atHub = append(atHub, time.Since(start))
		if err := link.WaitRevision(ctx, res.Revision); err != nil {
			return err
		}
		atWS = append(atWS, time.Since(start)-pushed)
	}
	b.printf("| what | p50 ms | p99 ms |\n|---|---|---|\n")
	b.printf("| push of one change, read back at the hub (baseline) | %.2f | %.2f |\n", ms(percentile(atHub, 50)), ms(percentile(atHub, 99)))
	b.printf("| the change in the workspace's view, after the push answered | %.2f | %.2f |\n", ms(percentile(atWS, 50)), ms(percentile(atWS, 99)))
	b.printf("\nFirst sync of a fresh workspace (open to the whole catalog in its view): %.0f ms. A change reaches the agents %.2fx the hub's own round trip after it (p50); target: within a second: %s.\n\n",
		ms(first), float64(percentile(atWS, 50))/float64(percentile(atHub, 50)), verdict(percentile(atWS, 99) < time.Second))

	h.Close()
	h, err = hub.Start(ctx, cfg, nil)
	if err != nil {
		return err
	}
	start = time.Now()
	res, err := h.PushCatalog(ctx, "bench", teamTree(rounds+1))
	if err != nil {
		return err
	}
	wctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	if err := link.WaitRevision(wctx, res.Revision); err != nil {
		return err
	}
	b.printf("After a hub restart: a change pushed as soon as the hub serves is in the workspace's view %.0f ms later (the mirror is kicked when the link comes back; without the kick it waits out its retry, ~10 s).\n\n", ms(time.Since(start)))
	return nil
}

// teamObjects is the size of the benchmark's team catalog.
const teamObjects = 50

// teamTree is the benchmark's catalog at version v: rule 0 changes with v.
func teamTree(v int) []hubwire.CatalogFile {
	files := make([]hubwire.CatalogFile, teamObjects)
	for i := range files {
		version := 0
		if i == 0 {
			version = v
		}
		body := fmt.Sprintf("# Rule %d\n\nWhat rule %d is for.\n\n## Steps\n\n", i, i)
		for len(body) < 3000 {
			body += fmt.Sprintf("- step %d of rule %d, version %d\n", len(body), i, version)
		}
		files[i] = hubwire.CatalogFile{Source: fmt.Sprintf("rules/team/R%02d.md", i), Body: body}
	}
	return files
}

package main

import (
	"context"
	"fmt"
	"time"
)

// benchHubJoins measures the joins alone, without the links and the load
// of the hubscale section: -hub-nodes joins through the API (an invite
// and a join each, scaleJoinRequests in flight) into one hub or a
// cluster (-hub-sizes), the cost of the first and the last tenth and the
// curve by tenth, then the hubs stopped and started again with every node
// registered, timed to every hub's API answering. A join should cost the
// same at the first and the thousandth, and a start grow no more than
// linearly with the registry.
func benchHubJoins(ctx context.Context, b *bench) error {
	n := b.hubNodes
	b.printf("## Joins at the first and the last (issue 36)\n\n%d nodes invited and joined through the hubs' API, offline, %d requests in flight (the time of each is its invite and its join); then the hubs restarted with every node registered. Load average at the start: %s.\n\n", n, scaleJoinRequests, loadAvg())
	b.printf("| hubs | joins, all | first tenth p50 / p99 ms | last tenth p50 / p99 ms | last / first at p50; at p99 | p50 / p99 by tenth, ms | restart to every API answering | RSS after the joins; restarted |\n|---|---|---|---|---|---|---|---|\n")
	for _, hubs := range b.hubSizes {
		if err := hubJoins(ctx, b, hubs, n); err != nil {
			return fmt.Errorf("%d hubs: %w", hubs, err)
		}
	}
	b.printf("\nLoad average at the end: %s.\n\n", loadAvg())
	return nil
}

func hubJoins(ctx context.Context, b *bench, hubs, n int) error {
	hps, err := newHubProcs(b, hubs)
	if err != nil {
		return err
	}
	r := &scaleRun{b: b, hubs: hps}
	defer r.close()
	if err := r.startHubs(); err != nil {
		return err
	}
	start := time.Now()
	joins, err := r.register(ctx, n)
	if err != nil {
		return fmt.Errorf("register: %w", err)
	}
	all := time.Since(start)
	k := max(1, n/10)
	early, late := joins[:k], joins[n-k:]
	joined := r.rssEach()
	restart := time.Now()
	if err := r.restartHubs(); err != nil {
		return err
	}
	restarted := time.Since(restart)
	b.printf("| %d | %.1f s | %.0f / %.0f | %.0f / %.0f | %.2fx; %.2fx | %s | %.1f s | %s; %s |\n", hubs, all.Seconds(),
		ms(percentile(early, 50)), ms(percentile(early, 99)), ms(percentile(late, 50)), ms(percentile(late, 99)),
		ratio(percentile(late, 50), percentile(early, 50)), ratio(percentile(late, 99), percentile(early, 99)),
		joinCurve(joins), restarted.Seconds(), joined, r.rssEach())
	return nil
}

package main

import (
	"context"
	"time"
)

// joinStorm joins k more nodes, inFlight join requests at once, while
// every linked node of the run appends scaleRate events a second; each
// new node starts, dials the hub it joined and appends scaleJoinEvents
// as soon as its join answers. Then every hub must count every event
// exactly once, the storm's included; the new nodes take part in the
// run's later phases.
func (r *scaleRun) joinStorm(ctx context.Context, k, inFlight int) error {
	lctx, stop := context.WithCancel(ctx)
	load := r.startLoad(ctx, lctx, time.Second/scaleRate)
	linked := len(r.nodes)
	start := time.Now()
	nodes, took, err := r.join(ctx, k, inFlight, func(ln *leafNode) error {
		if err := ln.start(ctx); err != nil {
			return err
		}
		_, err := ln.appendN(ctx, scaleJoinEvents)
		return err
	})
	joined := time.Since(start)
	stop()
	if lerr := load(); err == nil {
		err = lerr
	}
	if err != nil {
		return err
	}
	r.nodes = append(r.nodes, nodes...)
	r.events += uint64(k * scaleJoinEvents)
	if err := r.waitLinked(3 * time.Minute); err != nil {
		return err
	}
	if err := r.waitAll(ctx, 10*time.Minute); err != nil {
		return err
	}
	all := time.Since(start)
	r.b.printf("| join storm: %d more nodes join (%d requests in flight) while the %d linked nodes append %d ev/s each; each new node links and appends %d events once joined | joins all answered in %.1f s (%.1f joins/s), a join p50 %.0f ms, p99 %.0f ms; every event (%d in all) counted exactly once by every hub %.1f s after the storm began; hub RSS %s after |\n",
		k, inFlight, linked, scaleRate, scaleJoinEvents, joined.Seconds(), float64(k)/joined.Seconds(), ms(percentile(took, 50)), ms(percentile(took, 99)), r.events, all.Seconds(), r.rssEach())
	return nil
}

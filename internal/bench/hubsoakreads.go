package main

import (
	"context"
	"sync"
	"time"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// soakReads is what the soak's stats readers did: the reads answered,
// those that failed, and how long each answered one took.
type soakReads struct {
	failed int
	took   []time.Duration
}

// startStatsReads reads every hub's stats summary (the default 30 days,
// as the dashboard opens) every b.hubSoakStats until lctx ends, as a
// dashboard left open on each hub redraws; the function it returns waits
// for the readers and says what they did. A read keeps the hub's stats
// answers (hub/statscache.go) until the next, so the soak's heap then
// shows what those answers hold.
func (r *scaleRun) startStatsReads(lctx context.Context) func() soakReads {
	var (
		mu  sync.Mutex
		out soakReads
		wg  sync.WaitGroup
	)
	for _, hp := range r.hubs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t := time.NewTicker(r.b.hubSoakStats)
			defer t.Stop()
			cl := hp.admin()
			for {
				select {
				case <-lctx.Done():
					return
				case <-t.C:
				}
				start := time.Now()
				rctx, cancel := context.WithTimeout(lctx, time.Minute)
				_, err := cl.StatsSummary(rctx, hubwire.StatsQuery{})
				cancel()
				mu.Lock()
				if err != nil {
					if lctx.Err() == nil {
						out.failed++
					}
				} else {
					out.took = append(out.took, time.Since(start))
				}
				mu.Unlock()
			}
		}()
	}
	return func() soakReads {
		wg.Wait()
		return out
	}
}

package gcpace

import (
	"context"
	"os"
	"runtime/metrics"
	"time"
)

// A serving process (clumsies serve) is a tool an agent host keeps running next to the
// agent: its memory should follow what it holds (the read models), not
// the garbage that a publish scan or the loading of the read models
// leaves behind, which the collector's default pacing lets grow to as
// much as is live (GOGC=100). serve sets a soft memory limit
// (debug.SetMemoryLimit) that follows the heap live at the end of the
// last collection: live plus half of it, and at least limitHeadroom
// more, never below minMemoryLimit (what a process holds while it starts,
// before the first fit can see it), fitted every fitEvery from the start
// (over stdio, serve starts it at the session's first answer). The collector then works
// harder only when garbage grows past that headroom, and never runs back
// to back because the catalog is larger than a fixed limit would allow
// (a fixed 40 MiB made the first start of 50,000 rules five times
// slower). GOMEMLIMIT, when set, is the user's choice and is left alone.
// Both settings go through SetPercent and SetLimit, so that a rebuild running in the
// process (a bulk job) keeps its own pacing until it ends.
//
// Below that limit the collector's pacing decides: with the default
// GOGC=100 a heap grows to twice what was live at the last collection
// before the next one, and at a small catalog (1,000 rules: about 8 MiB
// live, half of it a buffer of nats-server's) that garbage was a third of
// the process's peak. serve collects at ServingPercent instead: in the growth
// section of make bench, 44.3 MiB at 1,000 rules against 49.6 with 50
// (medians of three runs), for 5-15% more CPU in the first start of
// 50,000 rules. GOGC, when set, is the user's choice and is left alone.
//
// Only the process that owns the workspace holds the read models. The
// others forward every call to it and hold a few MiB, on which GOGC=25
// collects every few calls: at four sessions on one workspace the CPU per
// call of all processes together was 854-942 µs with every process at 25,
// 691-724 µs with the forwarders at ForwarderPercent (`make bench`,
// concurrency section, three runs each).
const (
	minMemoryLimit = 32 << 20
	limitHeadroom  = 16 << 20
	fitEvery       = 250 * time.Millisecond
	// ServingPercent is the collector's target percentage of a serving
	// process that owns the workspace, ForwarderPercent of one that
	// forwards to the owner.
	ServingPercent   = 25
	ForwarderPercent = 100
)

// paceCollector sets the collector's target percentage to ServingPercent,
// or to ForwarderPercent when owner is false, and returns the setting it
// replaced, or -1 when GOGC is set and it was left alone.
func paceCollector(owner bool) int {
	if os.Getenv("GOGC") != "" {
		return -1
	}
	if !owner {
		return SetPercent(ForwarderPercent)
	}
	return SetPercent(ServingPercent)
}

// fitMemoryLimit fits the limit to the heap that was live at the end of
// the last collection, and returns the limit (0 when it was left alone).
func fitMemoryLimit() int64 {
	if os.Getenv("GOMEMLIMIT") != "" {
		return 0
	}
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	live := int64(s[0].Value.Uint64())
	limit := max(minMemoryLimit, live+max(limitHeadroom, live/2))
	SetLimit(limit)
	return limit
}

// FollowServing paces the collector of a serving process by whether it
// owns the workspace (owner; true until it is known), then fits the limit
// now, and both again every fitEvery until ctx ends.
func FollowServing(ctx context.Context, owner func() bool) {
	was := owner()
	paceCollector(was)
	fitted := fitMemoryLimit() != 0
	t := time.NewTicker(fitEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if is := owner(); is != was {
				paceCollector(is)
				was = is
			}
			if fitted {
				fitMemoryLimit()
			}
		}
	}
}

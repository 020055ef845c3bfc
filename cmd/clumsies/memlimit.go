package main

import (
	"os"
	"runtime/debug"
	"runtime/metrics"
)

// A serving process is a tool an agent host keeps running next to the
// agent: its memory should follow what it holds (the read models), not
// the garbage a publish scan or the loading of the read models leaves
// behind, which the collector's default pacing (the heap may grow to
// twice what is live) lets accumulate. serve sets a soft memory limit
// (debug.SetMemoryLimit): baseMemoryLimit while the workspace opens, then
// what is live plus headroom, so that the collector works harder only
// when the heap grows past what a publish or a burst of calls needs, and
// never runs back to back because the catalog itself is larger than a
// fixed limit. GOGC keeps its default: lowering it made no difference to
// the peak in make bench (the growth section), the limit did. GOMEMLIMIT,
// when set, is the user's choice and is left alone.
const (
	baseMemoryLimit = 40 << 20
	limitHeadroom   = 16 << 20
)

// limitMemory sets the limit a serving process starts with.
func limitMemory() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(baseMemoryLimit)
	}
}

// fitMemoryLimit sets the limit to what is live now (the read models
// loaded) plus a quarter of it and limitHeadroom, and never below
// baseMemoryLimit.
func fitMemoryLimit() {
	if os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return
	}
	live := int64(s[0].Value.Uint64())
	debug.SetMemoryLimit(max(baseMemoryLimit, live+live/4+limitHeadroom))
}

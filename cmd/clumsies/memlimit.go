package main

import (
	"context"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// A serving process is a tool an agent host keeps running next to the
// agent: its memory should follow what it holds (the read models), not
// the garbage that a publish scan or the loading of the read models
// leaves behind and that the collector's default pacing (the heap may
// grow to twice what is live) lets accumulate. serve sets a soft memory
// limit (debug.SetMemoryLimit): baseMemoryLimit while the workspace
// opens; once it is open, what is live plus a quarter and limitHeadroom
// (never less than baseMemoryLimit), fitted again every fitEvery, so
// that the collector works harder only when the heap grows past what a
// publish or a burst of calls needs, and never runs back to back because
// the catalog grew past a fixed limit. GOGC keeps its default: lowering
// it changed nothing in the growth section of make bench, the limit did.
// GOMEMLIMIT, when set, is the user's choice and is left alone.
const (
	baseMemoryLimit = 40 << 20
	limitHeadroom   = 16 << 20
	fitEvery        = 10 * time.Second
)

// limitMemory sets the limit a serving process starts with.
func limitMemory() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(baseMemoryLimit)
	}
}

// fitMemoryLimit fits the limit to the heap that was live at the end of
// the last collection.
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

// followMemory fits the limit once the workspace is open (after a
// collection, so that what is live is known) and every fitEvery until
// ctx ends.
func followMemory(ctx context.Context) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	runtime.GC()
	fitMemoryLimit()
	t := time.NewTicker(fitEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			fitMemoryLimit()
		}
	}
}

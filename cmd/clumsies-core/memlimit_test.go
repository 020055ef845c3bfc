package main

import (
	"runtime"
	"runtime/debug"
	"testing"
)

func TestMemoryLimit(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(before) })

	t.Setenv("GOMEMLIMIT", "")
	runtime.GC()
	small := fitMemoryLimit()
	if got := debug.SetMemoryLimit(-1); got != small || small < minMemoryLimit {
		t.Fatalf("limit %d (fit returned %d), want at least %d", got, small, minMemoryLimit)
	}
	big := make([]byte, 256<<20) // live: the limit must follow it, with room
	runtime.GC()
	if got := fitMemoryLimit(); got < int64(len(big))*3/2 {
		t.Fatalf("limit with %d bytes live: %d, want at least %d", len(big), got, len(big)*3/2)
	}
	big[len(big)-1] = 1
	runtime.KeepAlive(big)

	t.Setenv("GOMEMLIMIT", "1GiB")
	debug.SetMemoryLimit(before)
	if fitMemoryLimit() != 0 || debug.SetMemoryLimit(-1) != before {
		t.Fatalf("with GOMEMLIMIT set: limit %d, want it left at %d", debug.SetMemoryLimit(-1), before)
	}
}

func TestPaceCollector(t *testing.T) {
	before := debug.SetGCPercent(100)
	t.Cleanup(func() { debug.SetGCPercent(before) })

	t.Setenv("GOGC", "")
	if got := paceCollector(); got != 100 {
		t.Fatalf("paceCollector replaced %d, want 100", got)
	}
	if got := debug.SetGCPercent(100); got != gcPercent {
		t.Fatalf("GC percent %d after paceCollector, want %d", got, gcPercent)
	}

	t.Setenv("GOGC", "200")
	if got := paceCollector(); got != -1 {
		t.Fatalf("with GOGC set, paceCollector returned %d, want -1", got)
	}
	if got := debug.SetGCPercent(100); got != 100 {
		t.Fatalf("with GOGC set: GC percent %d, want it left at 100", got)
	}
}

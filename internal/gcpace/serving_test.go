package gcpace

import (
	"context"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
	"testing"
	"time"
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
	if got := paceCollector(true); got != 100 {
		t.Fatalf("paceCollector replaced %d, want 100", got)
	}
	if got := debug.SetGCPercent(100); got != ServingPercent {
		t.Fatalf("GC percent %d after paceCollector of an owner, want %d", got, ServingPercent)
	}
	debug.SetGCPercent(ServingPercent)
	if got := paceCollector(false); got != ServingPercent {
		t.Fatalf("paceCollector replaced %d, want %d", got, ServingPercent)
	}
	if got := debug.SetGCPercent(100); got != ForwarderPercent {
		t.Fatalf("GC percent %d after paceCollector of a forwarder, want %d", got, ForwarderPercent)
	}

	t.Setenv("GOGC", "200")
	if got := paceCollector(true); got != -1 {
		t.Fatalf("with GOGC set, paceCollector returned %d, want -1", got)
	}
	if got := debug.SetGCPercent(100); got != 100 {
		t.Fatalf("with GOGC set: GC percent %d, want it left at 100", got)
	}
}

// gogc reads the collector's target percentage without changing it.
func gogc() uint64 {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// A serving process collects at ServingPercent while it owns the workspace (or
// does not know yet) and at ForwarderPercent while it forwards to another
// owner, following a change of role.
func TestFollowServing_PacesByRole(t *testing.T) {
	before, limit := debug.SetGCPercent(100), debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetGCPercent(before); debug.SetMemoryLimit(limit) })
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")

	var owner atomic.Bool
	owner.Store(true)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { FollowServing(ctx, owner.Load); close(done) }()
	defer func() { cancel(); <-done }()

	wait := func(want uint64) {
		t.Helper()
		deadline := time.Now().Add(20 * fitEvery)
		for gogc() != want {
			if time.Now().After(deadline) {
				t.Fatalf("GC percent %d, want %d", gogc(), want)
			}
			time.Sleep(fitEvery / 5)
		}
	}
	wait(ServingPercent)
	owner.Store(false)
	wait(ForwarderPercent)
	owner.Store(true)
	wait(ServingPercent)
}

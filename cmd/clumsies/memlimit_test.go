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
	limitMemory()
	if got := debug.SetMemoryLimit(-1); got != baseMemoryLimit {
		t.Fatalf("limit while opening: %d, want %d", got, baseMemoryLimit)
	}
	big := make([]byte, 2*baseMemoryLimit) // live: the limit must follow it
	runtime.GC()
	fitMemoryLimit()
	if got := debug.SetMemoryLimit(-1); got < int64(len(big))+limitHeadroom {
		t.Fatalf("limit with %d bytes live: %d, want at least %d", len(big), got, int64(len(big))+limitHeadroom)
	}
	big[len(big)-1] = 1

	t.Setenv("GOMEMLIMIT", "1GiB")
	debug.SetMemoryLimit(before)
	limitMemory()
	fitMemoryLimit()
	if got := debug.SetMemoryLimit(-1); got != before {
		t.Fatalf("with GOMEMLIMIT set: limit %d, want it left at %d", got, before)
	}
}

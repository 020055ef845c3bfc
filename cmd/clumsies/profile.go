package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
)

// Environment variables that make a process write pprof profiles of
// itself, for measuring the server as a client drives it (the latency
// benchmark runs `serve` as a child: CLUMSIES_CPUPROFILE=/tmp/serve-%p.cpu
// go run ./internal/bench -only latency). "%p" in the path is replaced by
// the process id, so that several processes do not overwrite each other's.
// They are for developers and not part of the command line.
const (
	cpuProfileEnv   = "CLUMSIES_CPUPROFILE"   // CPU profile of the whole run
	allocProfileEnv = "CLUMSIES_ALLOCPROFILE" // allocations of the whole run, written at exit
)

// heapSampleRate is the heap profile's sampling rate the process started
// with: the runtime's one sample per 512 KiB allocated, or the rate
// GODEBUG=memprofilerate sets.
var heapSampleRate = runtime.MemProfileRate

// quietHeapProfile stops the heap profile's sampling, unless GODEBUG sets
// its rate: every sample keeps its stack in the runtime's profile buckets,
// a hash table of 1.4 MiB whose pages each new stack touches, which a
// serve held for nothing (BENCHMARKS.md, "Serve's memory and the long run
// (issue 35)"). --pprof turns it back on (servePprof).
func quietHeapProfile() {
	if !strings.Contains(os.Getenv("GODEBUG"), "memprofilerate=") {
		runtime.MemProfileRate = 0
	}
}

// startProfiles quiets the heap profile, starts what the profile
// variables ask for and returns the function that writes them out, to be
// called before the process exits. A profile that cannot be written is
// reported on stderr and skipped: it never changes what the command does.
func startProfiles() (stop func()) {
	quietHeapProfile()
	var stops []func()
	if path := profilePath(cpuProfileEnv); path != "" {
		if f, err := os.Create(path); err != nil {
			fmt.Fprintf(os.Stderr, "clumsies: %s: %v\n", cpuProfileEnv, err)
		} else if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintf(os.Stderr, "clumsies: %s: %v\n", cpuProfileEnv, err)
			f.Close()
		} else {
			stops = append(stops, func() { pprof.StopCPUProfile(); f.Close() })
		}
	}
	if path := profilePath(allocProfileEnv); path != "" {
		runtime.MemProfileRate = 4096
		stops = append(stops, func() {
			if err := writeAllocs(path); err != nil {
				fmt.Fprintf(os.Stderr, "clumsies: %s: %v\n", allocProfileEnv, err)
			}
		})
	}
	return func() {
		for _, s := range stops {
			s()
		}
	}
}

func writeAllocs(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("create allocation profile: %w", err)
	}
	defer f.Close()
	if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
		return fmt.Errorf("write allocation profile: %w", err)
	}
	return f.Close()
}

// profilePath is the value of the variable env with "%p" replaced by the
// process id, or "" when it is not set.
func profilePath(env string) string {
	return strings.ReplaceAll(os.Getenv(env), "%p", strconv.Itoa(os.Getpid()))
}

package main

import (
	"io"
	"net"
	"net/http"
	"runtime"
	"strings"
	"testing"
)

// TestServePprof serves the profiles on a loopback port and reads the
// heap profile's text form, then stops: the port is free again.
func TestServePprof(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	stop, err := servePprof(addr)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get("http://" + addr + "/debug/pprof/heap?debug=1")
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(b), "heap profile") {
		t.Fatalf("GET /debug/pprof/heap: %d %.200s", resp.StatusCode, b)
	}
	stop()
	again, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatalf("the profiles' port is still taken after stop: %v", err)
	}
	again.Close()
}

// TestQuietHeapProfile checks that a process stops sampling its heap
// unless GODEBUG sets a rate, and that serving the profiles samples it
// again.
func TestQuietHeapProfile(t *testing.T) {
	was := runtime.MemProfileRate
	t.Cleanup(func() { runtime.MemProfileRate = was })
	t.Setenv("GODEBUG", "")
	quietHeapProfile()
	if runtime.MemProfileRate != 0 {
		t.Fatalf("MemProfileRate %d after quietHeapProfile, want 0", runtime.MemProfileRate)
	}
	stop, err := servePprof("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	stop()
	if runtime.MemProfileRate != heapSampleRate || heapSampleRate == 0 {
		t.Fatalf("MemProfileRate %d while the profiles are served, want %d", runtime.MemProfileRate, heapSampleRate)
	}
	runtime.MemProfileRate = 4096
	t.Setenv("GODEBUG", "gctrace=0,memprofilerate=4096")
	quietHeapProfile()
	if runtime.MemProfileRate != 4096 {
		t.Fatalf("MemProfileRate %d with GODEBUG=memprofilerate=4096, want it kept", runtime.MemProfileRate)
	}
}

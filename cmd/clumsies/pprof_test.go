package main

import (
	"io"
	"net"
	"net/http"
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

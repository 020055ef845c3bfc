package main

import (
	"fmt"
	"net"
	"net/http"
	"net/http/pprof"
	"runtime"
)

// servePprof serves Go's profiles under /debug/pprof/ on addr until the
// returned stop is called, with the heap profile sampled again from now
// on (quietHeapProfile stopped it).
func servePprof(addr string) (stop func(), err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("listen for the profiles: %w", err)
	}
	if runtime.MemProfileRate == 0 {
		runtime.MemProfileRate = heapSampleRate
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	srv := &http.Server{Handler: mux}
	go func() { _ = srv.Serve(ln) }()
	return func() { _ = srv.Close() }, nil
}

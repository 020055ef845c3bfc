package main_test

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestServe_Pprof checks that serve --pprof serves Go's profiles while
// it serves (what the longrun section of make bench reads serve's heap
// from), and that a taken address stops serve with exit 1.
func TestServe_Pprof(t *testing.T) {
	dir := newWorkspace(t)
	addr := freeAddr(t)
	_, cl, _ := serveStderr(t, dir, "--pprof", addr)
	setup(t, cl, "pprof")
	resp, err := http.Get("http://" + addr + "/debug/pprof/heap?debug=1")
	if err != nil {
		t.Fatalf("serve --pprof %s: %v", addr, err)
	}
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK || !strings.Contains(string(b), "# HeapInuse = ") {
		t.Fatalf("GET /debug/pprof/heap of serve: %d %v %.200s", resp.StatusCode, err, b)
	}
	if r := run(t, dir, "serve", "--pprof", addr); r.code != 1 || !strings.Contains(r.stderr, "listen for the profiles") {
		t.Fatalf("serve --pprof on a taken address: exit %d, stderr %q; want exit 1 saying so", r.code, r.stderr)
	}
}

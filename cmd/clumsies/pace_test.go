package main

import (
	"bufio"
	"context"
	"io"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/clumsies/clumsies/internal/gcpace"
	"github.com/clumsies/clumsies/node"
	"github.com/clumsies/clumsies/workspace"
)

// gogcAtFirstWrite is stdout that records the collector's percentage when
// the first answer is written, and passes everything on.
type gogcAtFirstWrite struct {
	io.Writer
	once   sync.Once
	gogc   uint64
	socket bool // the owner's socket existed: the workspace had opened
	sock   string
}

func (w *gogcAtFirstWrite) Write(p []byte) (int, error) {
	w.once.Do(func() {
		w.gogc = gogc()
		_, err := os.Stat(w.sock)
		w.socket = err == nil
	})
	return w.Writer.Write(p)
}

// serve over stdio leaves the collector's pacing alone until its first
// answer is written (collections at gcpace.ServingPercent from the start slowed the
// answer to initialize on a loaded machine), then paces it.
func TestServe_PacesTheCollectorAfterTheFirstAnswer(t *testing.T) {
	before, limit := debug.SetGCPercent(100), debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetGCPercent(before); debug.SetMemoryLimit(limit) })
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	ws, _, err := workspace.Init(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}

	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	out := &gogcAtFirstWrite{Writer: outW, sock: node.SocketPath(ws.StateDir())}
	var stderr strings.Builder
	m := &Main{Stdin: inR, Stdout: out, Stderr: &syncBuilder{b: &stderr}}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- m.Run(ctx, []string{"serve", "--workspace", ws.Root}); outW.Close() }()

	go io.WriteString(inW, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`+"\n")
	answer, err := bufio.NewReader(outR).ReadString('\n')
	if err != nil || !strings.Contains(answer, `"id":1,"result"`) {
		t.Fatalf("answer %q, %v", answer, err)
	}
	go io.Copy(io.Discard, outR)
	switch {
	case out.socket:
		t.Skip("the workspace opened before initialize was answered: the pacing may start with the open")
	case out.gogc != 100:
		t.Errorf("GC percent %d when the first answer was written, want 100 (not paced yet)", out.gogc)
	}
	for deadline := time.Now().Add(time.Minute); gogc() != gcpace.ServingPercent; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("GC percent %d a minute after the first answer, want %d", gogc(), gcpace.ServingPercent)
		}
	}
	inW.Close()
	if err := <-done; err != nil {
		t.Fatalf("serve: %v\n%s", err, stderr.String())
	}
}

// gogc reads the collector's target percentage without changing it.
func gogc() uint64 {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// syncBuilder is a strings.Builder safe for the writes of several
// goroutines.
type syncBuilder struct {
	mu sync.Mutex
	b  *strings.Builder
}

func (s *syncBuilder) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

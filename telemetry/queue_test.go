package telemetry

import (
	"context"
	"testing"
	"time"

	"github.com/clumsies/clumsies/mcp"
)

// TestToolCall_FullQueue checks that a call never waits for the export:
// with the queue full (no worker draining it), ToolCall returns at once
// and counts what it dropped.
func TestToolCall_FullQueue(t *testing.T) {
	e := &Exporter{queue: make(chan *finished, 2)}
	done := make(chan struct{})
	go func() {
		for range 5 {
			e.ToolCall(context.Background(), mcp.CallRecord{})
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("ToolCall waited on a full queue")
	}
	if got := e.Dropped(); got != 3 {
		t.Fatalf("dropped %d calls, want 3 (5 calls, a queue of 2)", got)
	}
}

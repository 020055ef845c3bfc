package hub_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/events"
)

// TestSourcing_PastTheFlowControlWindow checks that a node whose link
// stays up gets every event to the hub when it appends more than a
// sourcing consumer's first flow-control window (2 MiB in nats-server):
// a source whose consumer stalls on flow control is re-sourced.
func TestSourcing_PastTheFlowControlWindow(t *testing.T) {
	th := newTestHub(t)
	tn := joinNode(t, th, "red", "")
	const n, size = 800, 8 << 10 // 6.4 MiB in all
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	summary := strings.Repeat("x", size)
	for i := range n {
		ev, err := events.New(tn.ws.ID(), events.TypeAgentReport, events.AgentReportData{Summary: fmt.Sprintf("%d %s", i, summary)})
		if err != nil {
			t.Fatal(err)
		}
		ev.SessionID = "s-1"
		if _, err := tn.n.Log.Append(ctx, ev); err != nil {
			t.Fatalf("append %d: %v", i, err)
		}
	}
	waitAggregate(t, th, n)
}

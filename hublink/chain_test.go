package hublink_test

import (
	"context"
	"testing"
	"time"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/internal/hubtest"
)

// A node's ledger, once the hub holds it, checks against the hub's copy:
// the hub's chain reaches the local ledger's end and no problem is found.
func TestCheckLedger_Agrees(t *testing.T) {
	th := hubtest.NewHub(t)
	url, _ := th.API(t)
	tn := hubtest.Join(t, th, "red")
	ctx, cancel := context.WithTimeout(context.Background(), hubtest.Wait)
	defer cancel()
	var last uint64
	for range 3 {
		ev, err := events.New(tn.WS.ID(), events.TypeSessionStart, events.SessionStartData{Host: "claude-code"})
		if err != nil {
			t.Fatal(err)
		}
		if last, err = tn.N.Log.Append(ctx, ev); err != nil {
			t.Fatal(err)
		}
	}
	id := tn.ID
	id.Hub = url
	for {
		c, err := id.ReadChain(ctx, 0)
		if err == nil && c.Through >= last {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("the hub holds this node's ledger through seq %d after %s, want %d (%v)", c.Through, hubtest.Wait, last, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	lc, problems, err := id.CheckLedger(ctx, tn.WS.ID(), tn.N.Log)
	if err != nil || len(problems) > 0 || lc.Disagreement != nil || lc.Chain.Through < last {
		t.Fatalf("check: %+v, problems %q, %v; want the hub's copy through seq %d, agreeing", lc, problems, err, last)
	}
}

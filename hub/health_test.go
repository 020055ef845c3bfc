package hub_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/nats-io/nats.go"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// TestHealth_ReadsTheAggregateSeldom asks a hub's health 50 times in a
// row: the aggregate's information (its whole configuration with every
// source, and each source's state: hundreds of kilobytes at 1,000 nodes)
// is never asked for; the health reads the streams' state from the hub's
// own server. It was asked for twice per answer at first, then once a
// second. A client polling the health every 20 ms made the aggregate's
// leader build it 100 times a second.
func TestHealth_ReadsTheAggregateSeldom(t *testing.T) {
	th := newTestHub(t)
	joinNode(t, th, "red", "")
	nc, err := th.h.Connect()
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	var infos atomic.Int64
	if _, err := nc.Subscribe("$JS.API.STREAM.INFO."+hubwire.AggregateStream, func(*nats.Msg) { infos.Add(1) }); err != nil {
		t.Fatal(err)
	}
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}
	for range 50 {
		if h := th.h.Health(context.Background()); !h.OK || !h.Writer {
			t.Fatalf("health %+v: want ok, and a hub alone writing its sources", h)
		}
	}
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}
	if n := infos.Load(); n > 0 {
		t.Fatalf("50 health answers asked for the aggregate's information %d times, want none", n)
	}
}

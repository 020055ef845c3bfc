package hub_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/nats-io/nats.go"

	"github.com/clumsies/clumsies/events/natsjs"
	"github.com/clumsies/clumsies/hub/hubwire"
)

// aggregateReader follows the aggregate as the hub's projector does,
// through a natsjs.Source, and checks that it delivers every event once,
// in order: each sequence after the one before, each event id once.
type aggregateReader struct {
	next uint64          // the next sequence to read
	seen map[string]bool // the event ids read
}

// readTo reads the aggregate of th's hub, from r.next on, until r has
// read want events; a hub restart between two calls is fine.
func (r *aggregateReader) readTo(t *testing.T, th *testHub, want int) {
	t.Helper()
	nc, err := th.h.Connect()
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	src, err := natsjs.OpenSource(ctx, nc, hubwire.AggregateStream, natsjs.Options{})
	for errors.Is(err, nats.ErrNoResponders) && ctx.Err() == nil {
		// A JetStream request can go unanswered for a moment: ask again.
		src, err = natsjs.OpenSource(ctx, nc, hubwire.AggregateStream, natsjs.Options{})
	}
	if err != nil {
		t.Fatalf("open the aggregate: %v", err)
	}
	if len(r.seen) >= want {
		return
	}
	errRead := errors.New("read enough")
	err = src.Subscribe(ctx, r.next, func(m natsjs.Message) error {
		// (fn runs in the consumer's goroutine: it returns errors, and
		// the test fails below.)
		if m.Seq != r.next {
			return fmt.Errorf("read seq %d of the aggregate, want %d", m.Seq, r.next)
		}
		id := m.Header.Get(nats.MsgIdHdr)
		if r.seen[id] {
			return fmt.Errorf("event %s delivered twice (again at seq %d)", id, m.Seq)
		}
		r.seen[id] = true
		r.next++
		if len(r.seen) >= want {
			return errRead
		}
		return nil
	})
	if !errors.Is(err, errRead) {
		t.Fatalf("follow the aggregate: read %d of %d events: %v", len(r.seen), want, err)
	}
}

// TestAggregateSource_RestartAndReadd follows the aggregate through a
// natsjs.Source across a restart of the hub and a re-added source (the
// node's link drops and comes back, and the hub writes its source again):
// every event of the node is delivered once, in order, and no other.
func TestAggregateSource_RestartAndReadd(t *testing.T) {
	th := newTestHub(t)
	tn := joinNode(t, th, "red", "")
	want := map[string]bool{}
	r := &aggregateReader{next: 1, seen: map[string]bool{}}

	addAll(want, tn.appendN(t, 20))
	r.readTo(t, th, len(want))

	th.stop()
	addAll(want, tn.appendN(t, 30))
	th.start(t)
	r.readTo(t, th, len(want))

	tn.close()
	tn.open(t) // the link comes up again: the hub re-adds its source
	addAll(want, tn.appendN(t, 20))
	r.readTo(t, th, len(want))

	addAll(want, tn.appendN(t, 10))
	checkExactly(t, th, want)
	r.readTo(t, th, len(want))
	for id := range r.seen {
		if !want[id] {
			t.Fatalf("the aggregate delivered %s, which the node never appended", id)
		}
	}
	if r.next != uint64(len(want))+1 {
		t.Fatalf("read up to seq %d, want %d", r.next-1, len(want))
	}
}

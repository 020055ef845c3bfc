package natsjs_test

import (
	"errors"
	"testing"

	embeddednats "github.com/clumsies/clumsies/embedded-nats"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/events/eventstest"
	"github.com/clumsies/clumsies/events/natsjs"
	"github.com/nats-io/nats.go/jetstream"
)

// An expectation that names the event the same Log appended last for the
// aggregate is checked against the stream's last sequence, which the
// server keeps in memory, instead of the aggregate's newest message, which
// it would read. Whatever came in between sends it back to the
// aggregate's own check, so the outcome is the contract's in every case.
func TestAppendExpecting_OwnTailIsCheckedWithoutARead(t *testing.T) {
	ctx := testCtx(t)
	n := startNode(t, t.TempDir(), embeddednats.SyncInterval)
	l := n.open(t)
	drafts := func(seq uint64) events.Expectation {
		return events.Expectation{Aggregate: events.AggregateDrafts, LastSeq: seq}
	}
	js, err := jetstream.New(n.nc)
	if err != nil {
		t.Fatal(err)
	}
	stream, err := js.Stream(ctx, l.Stream())
	if err != nil {
		t.Fatal(err)
	}
	// checked says which check the server made of the event at seq.
	checked := func(seq uint64) string {
		t.Helper()
		msg, err := stream.GetMsg(ctx, seq)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case msg.Header.Get(jetstream.ExpectedLastSeqHeader) != "":
			return "stream"
		case msg.Header.Get(jetstream.ExpectedLastSubjSeqHeader) != "":
			return "aggregate"
		}
		return "none"
	}
	appendDraft := func(l *natsjs.Log, path string, exp events.Expectation) uint64 {
		t.Helper()
		seq, err := l.AppendExpecting(ctx, eventstest.DraftEvent(t, path), exp)
		if err != nil {
			t.Fatalf("append %s expecting %d: %v", path, exp.LastSeq, err)
		}
		return seq
	}

	first := appendDraft(l, "a.md", drafts(0))
	second := appendDraft(l, "b.md", drafts(first))
	if got := checked(first) + "," + checked(second); got != "aggregate,stream" {
		t.Fatalf("checks of the first two appends: %s, want aggregate,stream", got)
	}

	// An event of another aggregate in between is no conflict: the
	// stream's check fails, the aggregate's holds.
	if _, err := l.Append(ctx, eventstest.Event(t, 1)); err != nil {
		t.Fatal(err)
	}
	third := appendDraft(l, "c.md", drafts(second))
	fourth := appendDraft(l, "d.md", drafts(third))
	if got := checked(third) + "," + checked(fourth); got != "aggregate,stream" {
		t.Fatalf("checks around another aggregate's event: %s, want aggregate,stream", got)
	}

	// A retry of an append that was stored returns its sequence.
	ev := eventstest.DraftEvent(t, "e.md")
	fifth, err := l.AppendExpecting(ctx, ev, drafts(fourth))
	if err != nil {
		t.Fatal(err)
	}
	if again, err := l.AppendExpecting(ctx, ev, drafts(fourth)); err != nil || again != fifth {
		t.Fatalf("retry: got %d, %v, want %d", again, err, fifth)
	}

	// Another writer's event of the aggregate is a conflict.
	other := n.open(t)
	sixth := appendDraft(other, "f.md", drafts(fifth))
	_, err = l.AppendExpecting(ctx, eventstest.DraftEvent(t, "g.md"), drafts(fifth))
	var conflict *events.ConflictError
	if !errors.As(err, &conflict) || conflict.Actual != sixth {
		t.Fatalf("append over another writer's event: %v, want a conflict naming %d", err, sixth)
	}
}

// AppendExpectingStored returns the event as Replay delivers it.
func TestAppendExpectingStored_IsWhatReplayReads(t *testing.T) {
	ctx := testCtx(t)
	l := startNode(t, t.TempDir(), embeddednats.SyncInterval).open(t)
	stored, err := l.AppendExpectingStored(ctx, eventstest.DraftEvent(t, "a.md"), events.Expectation{Aggregate: events.AggregateDrafts})
	if err != nil {
		t.Fatal(err)
	}
	var read events.Event
	if err := l.Replay(ctx, 1, func(ev events.Event) error { read = ev; return nil }); err != nil {
		t.Fatal(err)
	}
	if read.Seq != stored.Seq || string(read.Raw) != string(stored.Raw) || read.ID != stored.ID ||
		read.Type != stored.Type || string(read.Data) != string(stored.Data) || read.Time != stored.Time {
		t.Fatalf("stored %+v\nread   %+v", stored, read)
	}
	if _, err := l.AppendExpectingStored(ctx, eventstest.DraftEvent(t, "b.md"), events.Expectation{Aggregate: events.AggregateDrafts}); !errors.Is(err, events.ErrConflict) {
		t.Fatalf("append over a newer event: %v, want a conflict", err)
	}
}

package natsjs_test

import (
	"testing"

	embeddednats "github.com/clumsies/clumsies/embedded-nats"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/events/eventstest"
	"github.com/clumsies/clumsies/events/natsjs"
)

// TestLog_AppendingBeforeEachAppend wants Options.Appending called once
// for each append, through Append and AppendExpecting, before the server
// has the event: the stream's last sequence at the call is the one before
// it.
func TestLog_AppendingBeforeEachAppend(t *testing.T) {
	n := startNode(t, t.TempDir(), embeddednats.SyncAlways)
	var l *natsjs.Log
	var seen []uint64
	l, err := natsjs.Open(testCtx(t), n.nc, workspace, natsjs.Options{Appending: func() {
		last, err := l.LastSeq(testCtx(t))
		if err != nil {
			t.Error(err)
		}
		seen = append(seen, last)
	}})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if _, err := l.Append(testCtx(t), eventstest.Event(t, i)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := l.AppendExpecting(testCtx(t), eventstest.DraftEvent(t, "a.md"), events.Expectation{Aggregate: events.AggregateDrafts}); err != nil {
		t.Fatal(err)
	}
	want := []uint64{0, 1, 2, 3}
	if len(seen) != len(want) {
		t.Fatalf("Appending called with the stream at %v, want %v", seen, want)
	}
	for i := range want {
		if seen[i] != want[i] {
			t.Fatalf("Appending called with the stream at %v, want %v", seen, want)
		}
	}
}

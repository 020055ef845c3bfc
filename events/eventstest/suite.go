package eventstest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/clumsies/clumsies/events"
)

// WorkspaceID is the workspace the suite's events belong to. A Log under
// test must accept events of this workspace.
const WorkspaceID = "ws-0123456789abcdef0123456789abcdef"

// Run runs the conformance suite on a workspace's log. newLog must return
// an empty log that stays usable until the test ends; it is called once
// per subtest.
func Run(t *testing.T, newLog func(t *testing.T) events.Log) { RunFixture(t, Workspace(newLog)) }

// RunFixture runs the conformance suite on the log f describes.
func RunFixture(t *testing.T, f Fixture) {
	for _, c := range []struct {
		name string
		test func(*testing.T, Fixture, events.Log)
	}{
		{"AppendAssignsSequences", testAppendSequences},
		{"AppendDedupesByID", testDedupe},
		{"AppendRejectsMalformed", testMalformed},
		{"ReplayRoundTrips", testReplayRoundTrip},
		{"ReplayFrom", testReplayFrom},
		{"ReplayEmpty", testReplayEmpty},
		{"ReplayStopsOnError", testReplayStops},
		{"SubscribeFollows", testSubscribe},
		{"ConcurrentAppends", testConcurrent},
		{"ExpectationHolds", testExpectationHolds},
		{"ExpectationConflicts", testExpectationConflicts},
		{"ExpectationIgnoresOtherAggregates", testExpectationOthers},
		{"ExpectationRetrySameID", testExpectationRetry},
		{"ExpectationRejectsForeignType", testExpectationForeign},
		{"ExpectationOneWinnerOfARace", testExpectationRace},
	} {
		t.Run(c.name, func(t *testing.T) { c.test(t, f, f.NewLog(t)) })
	}
}

// Event returns a valid refer event numbered n, for tests.
func Event(tb testing.TB, n int) events.Event {
	tb.Helper()
	ev, err := events.New(WorkspaceID, events.TypeRefer, events.ReferData{Refs: []events.Ref{{
		RuleID: "p-00000000000000000000000000000001", RuleHash: "sha256:00",
		ConstraintID: fmt.Sprintf("Steps/%d", n), Name: "Steps", TextHash: "sha256:01",
	}}})
	if err != nil {
		tb.Fatal(err)
	}
	ev.SessionID = "suite"
	ev.Tool = "memref"
	ev.DurationUs = int64(n)
	return ev
}

func ctx(tb testing.TB) context.Context {
	tb.Helper()
	c, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	tb.Cleanup(cancel)
	return c
}

func appendN(tb testing.TB, f Fixture, l events.Log, n int) []events.Event {
	tb.Helper()
	evs := make([]events.Event, n)
	for i := range evs {
		evs[i] = f.Event(tb, i)
		seq, err := l.Append(ctx(tb), evs[i])
		if err != nil {
			tb.Fatalf("append %d: %v", i, err)
		}
		if want := uint64(i + 1); seq != want {
			tb.Fatalf("append %d: got seq %d, want %d", i, seq, want)
		}
		evs[i].Seq = seq
	}
	return evs
}

func collect(tb testing.TB, l events.Log, from uint64) []events.Event {
	tb.Helper()
	var got []events.Event
	if err := l.Replay(ctx(tb), from, func(ev events.Event) error {
		got = append(got, ev)
		return nil
	}); err != nil {
		tb.Fatalf("replay from %d: %v", from, err)
	}
	return got
}

func testAppendSequences(t *testing.T, f Fixture, l events.Log) {
	appendN(t, f, l, 5)
	last, err := l.LastSeq(ctx(t))
	if err != nil || last != 5 {
		t.Fatalf("LastSeq: got %d, %v, want 5, nil", last, err)
	}
}

func testDedupe(t *testing.T, f Fixture, l events.Log) {
	evs := appendN(t, f, l, 3)
	again := evs[1]
	again.Seq = 0
	seq, err := l.Append(ctx(t), again)
	if err != nil {
		t.Fatalf("re-append: %v", err)
	}
	if seq != 2 {
		t.Fatalf("re-append: got seq %d, want 2", seq)
	}
	if last, _ := l.LastSeq(ctx(t)); last != 3 {
		t.Fatalf("LastSeq after duplicate: got %d, want 3", last)
	}
	if got := collect(t, l, 1); len(got) != 3 {
		t.Fatalf("replay after duplicate: got %d events, want 3", len(got))
	}
}

func testMalformed(t *testing.T, f Fixture, l events.Log) {
	bad := f.Event(t, 0)
	bad.Type = "no.such.type"
	if _, err := l.Append(ctx(t), bad); !errors.Is(err, events.ErrMalformed) {
		t.Fatalf("append unknown type: got %v, want ErrMalformed", err)
	}
	bad = f.Event(t, 0)
	bad.ID = ""
	if _, err := l.Append(ctx(t), bad); !errors.Is(err, events.ErrMalformed) {
		t.Fatalf("append empty id: got %v, want ErrMalformed", err)
	}
	if last, _ := l.LastSeq(ctx(t)); last != 0 {
		t.Fatalf("LastSeq after rejected appends: got %d, want 0", last)
	}
}

func testReplayRoundTrip(t *testing.T, f Fixture, l events.Log) {
	want := appendN(t, f, l, 10)
	got := collect(t, l, 1)
	if len(got) != len(want) {
		t.Fatalf("replay: got %d events, want %d", len(got), len(want))
	}
	for i := range want {
		if !sameEvent(got[i], want[i]) {
			t.Fatalf("replay event %d: got %+v, want %+v", i, got[i], want[i])
		}
		// Raw is what was stored: the encoding of the appended event,
		// which decodes to the event delivered.
		stored, err := f.Encode(want[i])
		if err != nil {
			t.Fatal(err)
		}
		if string(got[i].Raw) != string(stored) {
			t.Fatalf("replay event %d: Raw is %q, want the stored bytes %q", i, got[i].Raw, stored)
		}
		again, err := f.Decode(got[i].Raw)
		if again.Seq = got[i].Seq; err != nil || !sameEvent(again, got[i]) {
			t.Fatalf("replay event %d: Raw decodes to %+v (%v), want the event delivered", i, again, err)
		}
	}
}

func sameEvent(a, b events.Event) bool {
	return a.Seq == b.Seq && a.ID == b.ID && a.Type == b.Type && a.Time == b.Time &&
		a.WorkspaceID == b.WorkspaceID && a.Team == b.Team && a.SessionID == b.SessionID && a.Tool == b.Tool &&
		a.Outcome == b.Outcome && a.ErrorCode == b.ErrorCode && a.DurationUs == b.DurationUs &&
		string(a.Data) == string(b.Data) && a.V == b.V
}

func testReplayFrom(t *testing.T, f Fixture, l events.Log) {
	appendN(t, f, l, 10)
	got := collect(t, l, 7)
	if len(got) != 4 || got[0].Seq != 7 || got[3].Seq != 10 {
		t.Fatalf("replay from 7: got %d events (first %v), want seqs 7..10", len(got), seqs(got))
	}
	if got := collect(t, l, 11); len(got) != 0 {
		t.Fatalf("replay past the end: got %d events, want 0", len(got))
	}
	if got := collect(t, l, 0); len(got) != 10 {
		t.Fatalf("replay from 0: got %d events, want 10", len(got))
	}
}

func seqs(evs []events.Event) []uint64 {
	out := make([]uint64, len(evs))
	for i, e := range evs {
		out[i] = e.Seq
	}
	return out
}

func testReplayEmpty(t *testing.T, f Fixture, l events.Log) {
	if got := collect(t, l, 1); len(got) != 0 {
		t.Fatalf("replay of an empty log: got %d events, want 0", len(got))
	}
}

func testReplayStops(t *testing.T, f Fixture, l events.Log) {
	appendN(t, f, l, 5)
	stop := errors.New("stop")
	n := 0
	err := l.Replay(ctx(t), 1, func(events.Event) error {
		n++
		if n == 2 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || n != 2 {
		t.Fatalf("replay with failing fn: got %v after %d calls, want stop after 2", err, n)
	}
}

func testSubscribe(t *testing.T, f Fixture, l events.Log) {
	appendN(t, f, l, 3)
	c, cancel := context.WithCancel(ctx(t))
	defer cancel()
	got := make(chan events.Event, 100)
	done := make(chan error, 1)
	go func() {
		done <- l.Subscribe(c, 2, func(ev events.Event) error {
			got <- ev
			return nil
		})
	}()
	for i := 3; i < 6; i++ {
		if _, err := l.Append(ctx(t), f.Event(t, i)); err != nil {
			t.Fatal(err)
		}
	}
	for want := uint64(2); want <= 6; want++ {
		select {
		case ev := <-got:
			if ev.Seq != want {
				t.Fatalf("subscribe: got seq %d, want %d", ev.Seq, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("subscribe: timed out waiting for seq %d", want)
		}
	}
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("subscribe after cancel: got %v, want context.Canceled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("subscribe did not return after cancel")
	}
}

func testConcurrent(t *testing.T, f Fixture, l events.Log) {
	const writers, each = 4, 25
	var wg sync.WaitGroup
	errs := make(chan error, writers*each)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				if _, err := l.Append(ctx(t), f.Event(t, w*each+i)); err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	got := collect(t, l, 1)
	if len(got) != writers*each {
		t.Fatalf("concurrent appends: got %d events, want %d", len(got), writers*each)
	}
	ids := make(map[string]bool)
	for i, ev := range got {
		if ev.Seq != uint64(i+1) {
			t.Fatalf("concurrent appends: event %d has seq %d", i, ev.Seq)
		}
		if ids[ev.ID] {
			t.Fatalf("concurrent appends: id %s stored twice", ev.ID)
		}
		ids[ev.ID] = true
	}
}

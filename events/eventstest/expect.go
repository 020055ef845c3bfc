package eventstest

import (
	"errors"
	"sync"
	"testing"

	"github.com/clumsies/clumsies/events"
)

// DraftEvent returns a valid attest.draft.create event for path, for tests.
func DraftEvent(tb testing.TB, path string) events.Event {
	tb.Helper()
	ev, err := events.New(WorkspaceID, events.TypeDraftCreate, events.DraftData{
		Resource: "rule", ID: "tmp-rule-" + path, Op: events.DraftOpCreate, Path: path, Body: "# " + path + "\n",
	})
	if err != nil {
		tb.Fatal(err)
	}
	ev.SessionID, ev.Tool = "suite", "artifact"
	return ev
}

// failedDraft returns a failed artifact call about path: an event of the
// drafts aggregate too.
func failedDraft(tb testing.TB, path string) events.Event {
	tb.Helper()
	failed := DraftEvent(tb, path)
	failed.Outcome, failed.ErrorCode = events.OutcomeError, string(events.CodeDraftExists)
	failed.Data = []byte(`{"message":"draft already exists"}`)
	return failed
}

func appendExpecting(tb testing.TB, l events.Log, ev events.Event, exp events.Expectation) uint64 {
	tb.Helper()
	seq, err := l.AppendExpecting(ctx(tb), ev, exp)
	if err != nil {
		tb.Fatalf("append %s expecting %s at %d: %v", ev.Type, exp.Aggregate, exp.LastSeq, err)
	}
	return seq
}

// wantConflict checks that err is the conflict of an expectation and that
// it names the aggregate's sequence when it names one.
func wantConflict(tb testing.TB, err error, actual uint64) {
	tb.Helper()
	if !errors.Is(err, events.ErrConflict) {
		tb.Fatalf("got %v, want an error wrapping ErrConflict", err)
	}
	var ce *events.ConflictError
	if !errors.As(err, &ce) {
		tb.Fatalf("got %T, want a *ConflictError in the chain", err)
	}
	if ce.Actual != 0 && ce.Actual != actual {
		tb.Errorf("conflict names seq %d, want %d", ce.Actual, actual)
	}
}

func testExpectationHolds(t *testing.T, f Fixture, l events.Log) {
	first := appendExpecting(t, l, f.Decision(t, "a.md"), f.expect(0))
	second := appendExpecting(t, l, f.Decision(t, "b.md"), f.expect(first))
	if second != first+1 {
		t.Errorf("got seqs %d, %d, want consecutive", first, second)
	}
}

func testExpectationConflicts(t *testing.T, f Fixture, l events.Log) {
	seq := appendExpecting(t, l, f.Decision(t, "a.md"), f.expect(0))
	_, err := l.AppendExpecting(ctx(t), f.Decision(t, "b.md"), f.expect(0))
	wantConflict(t, err, seq)
	if last, _ := l.LastSeq(ctx(t)); last != seq {
		t.Errorf("a conflicting append was stored: last seq %d, want %d", last, seq)
	}
	// A failed call of the aggregate is part of it too.
	if f.Failed == nil {
		return
	}
	fseq, err := l.Append(ctx(t), f.Failed(t, "c.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = l.AppendExpecting(ctx(t), f.Decision(t, "d.md"), f.expect(seq))
	wantConflict(t, err, fseq)
}

func testExpectationOthers(t *testing.T, f Fixture, l events.Log) {
	seq := appendExpecting(t, l, f.Decision(t, "a.md"), f.expect(0))
	appendN := func(n int) {
		for i := range n {
			if _, err := l.Append(ctx(t), f.Event(t, i)); err != nil {
				t.Fatal(err)
			}
		}
	}
	appendN(3) // evidence events belong to no aggregate
	appendExpecting(t, l, f.Decision(t, "b.md"), f.expect(seq))
}

func testExpectationRetry(t *testing.T, f Fixture, l events.Log) {
	ev := f.Decision(t, "a.md")
	seq := appendExpecting(t, l, ev, f.expect(0))
	if _, err := l.Append(ctx(t), f.Event(t, 1)); err != nil {
		t.Fatal(err)
	}
	// The same decision tried again (its answer was lost): the stored
	// sequence, though the aggregate's last sequence is no longer 0.
	again, err := l.AppendExpecting(ctx(t), ev, f.expect(0))
	if err != nil {
		t.Fatalf("retry of a stored append: %v", err)
	}
	if again != seq {
		t.Errorf("retry got seq %d, want the original %d", again, seq)
	}
}

func testExpectationForeign(t *testing.T, f Fixture, l events.Log) {
	_, err := l.AppendExpecting(ctx(t), f.Event(t, 1), events.Expectation{Aggregate: f.Foreign})
	if !errors.Is(err, events.ErrMalformed) {
		t.Errorf("an event on the condition of an aggregate it is not part of: got %v, want ErrMalformed", err)
	}
	if last, _ := l.LastSeq(ctx(t)); last != 0 {
		t.Errorf("stored %d events, want none", last)
	}
}

// testExpectationRace has eight writers decide on the same state: exactly
// one append may win.
func testExpectationRace(t *testing.T, f Fixture, l events.Log) {
	const writers = 8
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		wins int
	)
	for i := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := l.AppendExpecting(ctx(t), f.Decision(t, "same.md"), f.expect(0))
			switch {
			case err == nil:
				mu.Lock()
				wins++
				mu.Unlock()
			case !errors.Is(err, events.ErrConflict):
				t.Errorf("writer %d: %v", i, err)
			}
		}()
	}
	wg.Wait()
	if wins != 1 {
		t.Errorf("got %d winners, want 1", wins)
	}
}

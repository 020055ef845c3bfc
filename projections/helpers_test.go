package projections_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/clumsies/clumsies/catalog"
	"github.com/clumsies/clumsies/content"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/internal/foldcase"
	"github.com/clumsies/clumsies/projections"
)

const workspace = "ws-projections-test"

// ledger appends events to a MemoryLog with deterministic times.
type ledger struct {
	tb  testing.TB
	log *events.MemoryLog
	n   int // events appended, for the clock
}

func newLedger(tb testing.TB) *ledger {
	tb.Helper()
	return &ledger{tb: tb, log: events.NewMemoryLog()}
}

// option changes an event before it is appended.
type option func(*events.Event)

// inSession sets the session of an event.
func inSession(id string) option { return func(ev *events.Event) { ev.SessionID = id } }

// failed turns an event into a failed call. Its data stays as it was, so a
// projector that looked at the payload of a failure would be caught.
func failed(code string) option {
	return func(ev *events.Event) { ev.Outcome, ev.ErrorCode = events.OutcomeError, code }
}

// took sets the duration of a call.
func took(us int64) option { return func(ev *events.Event) { ev.DurationUs = us } }

// at sets the time of an event.
func at(t string) option { return func(ev *events.Event) { ev.Time = t } }

// add appends an event of type t and returns it with its sequence. Tool
// events get their tool, session "s1" and a duration of 10µs unless an
// option says otherwise.
func (l *ledger) add(t events.Type, payload any, opts ...option) events.Event {
	l.tb.Helper()
	ev := foldcase.NewEvent(l.tb, workspace, l.n, t, payload)
	l.n++
	for _, o := range opts {
		o(&ev)
	}
	seq, err := l.log.Append(context.Background(), ev)
	if err != nil {
		l.tb.Fatalf("append %s: %v", t, err)
	}
	// The bytes the log stored, as a replay would deliver them.
	if ev.Raw, err = events.Encode(ev); err != nil {
		l.tb.Fatal(err)
	}
	ev.Seq = seq
	return ev
}

// all returns every event of the ledger, as a Log replays them.
func (l *ledger) all() []events.Event {
	l.tb.Helper()
	var out []events.Event
	if err := l.log.Replay(context.Background(), 1, func(ev events.Event) error {
		out = append(out, ev)
		return nil
	}); err != nil {
		l.tb.Fatalf("replay: %v", err)
	}
	return out
}

// publish appends catalog.publish for a rule, workflow, context or the
// meta prompt at a public path.
func (l *ledger) publish(id string, kind content.Kind, path, body string, opts ...option) events.Event {
	l.tb.Helper()
	return l.add(events.TypeCatalogPublish, events.PublishData{
		ID: id, Kind: string(kind), Path: path, Name: content.NameOf(path), Group: content.GroupOf(path),
		Hash: content.Hash([]byte(body)), Body: body,
	}, opts...)
}

// refer appends a memref call with one ref per constraint id.
func (l *ledger) refer(ruleID string, constraintIDs []string, opts ...option) events.Event {
	l.tb.Helper()
	d := events.ReferData{}
	for _, c := range constraintIDs {
		d.Refs = append(d.Refs, events.Ref{RuleID: ruleID, ConstraintID: c, Name: c})
	}
	return l.add(events.TypeRefer, d, opts...)
}

// openMem opens a store on a fresh in-memory file system.
func openMem(tb testing.TB) *projections.Store {
	tb.Helper()
	return openAt(tb, vfs.NewMem(), "/db", projections.Options{})
}

// openAt opens a store in dir on fs and closes it when the test ends.
func openAt(tb testing.TB, fs vfs.FS, dir string, opts projections.Options) *projections.Store {
	tb.Helper()
	opts.FS = fs
	s, err := projections.Open(dir, opts)
	if err != nil {
		tb.Fatalf("open %s: %v", dir, err)
	}
	tb.Cleanup(func() { closeQuietly(s) })
	return s
}

// closeQuietly closes s unless it is closed already.
func closeQuietly(s *projections.Store) {
	if err := s.Close(); err != nil && !errors.Is(err, projections.ErrClosed) {
		panic(fmt.Sprintf("close store: %v", err))
	}
}

// apply applies evs and fails the test on error.
func apply(tb testing.TB, s *projections.Store, evs ...events.Event) {
	tb.Helper()
	if err := s.Apply(evs...); err != nil {
		tb.Fatalf("apply: %v", err)
	}
}

// digest returns the digest of s and fails the test on error.
func digest(tb testing.TB, s *projections.Store) string {
	tb.Helper()
	d, err := s.Digest()
	if err != nil {
		tb.Fatalf("digest: %v", err)
	}
	return d
}

// mustView returns the item of id and fails the test on error.
func mustView(tb testing.TB, s *projections.Store, id string) projections.Item {
	tb.Helper()
	it, err := s.View(context.Background(), id)
	if err != nil {
		tb.Fatalf("view %s: %v", id, err)
	}
	return it
}

// jsonOf renders v for failure messages.
func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// testCtx returns a context that ends with the test or after 30 s.
func testCtx(tb testing.TB) context.Context {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	tb.Cleanup(cancel)
	return ctx
}

// Ids used across tests.
const (
	ruleA    = "p-0000000000000000000000000000000a"
	ruleB    = "p-0000000000000000000000000000000b"
	flowC    = "p-0000000000000000000000000000000c"
	ctxD     = "c-0000000000000000000000000000000d"
	ruleGone = "p-000000000000000000000000000000ff"
)

// bodyA has three constraints: Steps/1, Steps/2 and Style.
const bodyA = "# A\n\n## Steps\n- one\n- two\n\n## Style\nUse gofmt.\n"

// mustList lists the store's items, failing the test on an error.
func mustList(tb testing.TB, s *projections.Store, f projections.Filter) []projections.Item {
	tb.Helper()
	items, err := s.List(context.Background(), f)
	if err != nil {
		tb.Fatalf("list %+v: %v", f, err)
	}
	return items
}

// allDrafts returns every draft of the store, failing the test on an error.
func allDrafts(tb testing.TB, s *projections.Store) []catalog.Draft {
	tb.Helper()
	ds, err := s.Drafts()
	if err != nil {
		tb.Fatalf("drafts: %v", err)
	}
	return ds
}

// closedDrafts returns every closed draft of s.
func closedDrafts(tb testing.TB, s *projections.Store) []catalog.Draft {
	tb.Helper()
	ds, err := s.ClosedDrafts()
	if err != nil {
		tb.Fatalf("closed drafts: %v", err)
	}
	return ds
}

// objects returns s.Objects() and fails on an error.
func objects(tb testing.TB, s *projections.Store) []projections.Object {
	tb.Helper()
	objs, err := s.Objects()
	if err != nil {
		tb.Fatal(err)
	}
	return objs
}

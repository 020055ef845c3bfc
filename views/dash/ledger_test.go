package dash_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections"
	"github.com/clumsies/clumsies/projections/projectionstest"
	"github.com/clumsies/clumsies/views/dash"
)

// testLedger is a workspace's ledger and read models for a test: the
// events it appended (dash.Events) and a store following them.
type testLedger struct {
	tb    testing.TB
	ctx   context.Context
	ws    string
	store *projections.Store
	log   *events.MemoryLog
	evs   appended
	last  uint64
}

func newTestLedger(tb testing.TB, ctx context.Context, ws string) *testLedger {
	log := events.NewMemoryLog()
	return &testLedger{tb: tb, ctx: ctx, ws: ws, store: projectionstest.Following(tb, log), log: log, evs: appended{}}
}

// add appends an event of session (none: "") with payload p.
func (l *testLedger) add(session string, typ events.Type, p any) {
	l.tb.Helper()
	ev, err := events.New(l.ws, typ, p)
	if err != nil {
		l.tb.Fatal(err)
	}
	ev.SessionID = session
	if l.last, err = l.log.Append(l.ctx, ev); err != nil {
		l.tb.Fatal(err)
	}
	ev.Seq = l.last
	l.evs[l.last] = ev
}

// settle waits until the store has applied every event added.
func (l *testLedger) settle() {
	l.tb.Helper()
	if err := l.store.WaitFor(l.ctx, l.last); err != nil {
		l.tb.Fatal(err)
	}
}

// answer asks for req and returns the reply.
func (l *testLedger) answer(req dash.Request) (dash.Reply, error) {
	return dash.Answer(l.ctx, l.store, l.evs, dash.Ledger{WorkspaceID: l.ws, LastSeq: l.last, Applied: l.store.Checkpoint()}, req)
}

// page asks for req, which must answer 200, and decodes it into v.
func (l *testLedger) page(req dash.Request, v any) {
	l.tb.Helper()
	reply, err := l.answer(req)
	if err != nil || reply.Status != 200 {
		l.tb.Fatalf("%s: %d %s, %v", req.Page, reply.Status, reply.Body, err)
	}
	if err := json.Unmarshal(reply.Body, v); err != nil {
		l.tb.Fatal(err)
	}
}

package hub

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/events/natsjs"
	"github.com/clumsies/clumsies/hub/hubwire"
	"github.com/clumsies/clumsies/internal/foldcase"
)

// A fold case of the hub (testdata/fold/*.txtar) holds the messages of
// the aggregate ("events": one JSON line each, # comments allowed) and
// what the hub's read models answer after them ("want").

// hubFoldLine is one message of a hub fold case: an event of node "a"
// (nodeA) or "b" (nodeB), sourced from the node's ledger at seq (the
// node's next sequence when 0), or the message of an earlier line
// delivered again (again: its line number among the messages, from 1), as
// a node sourced anew delivers it past the aggregate's dedupe window.
// Times are the day's, a second apart; the session is "s1" unless set.
type hubFoldLine struct {
	Node    string          `json:"node"`
	Seq     uint64          `json:"seq,omitempty"`
	Again   int             `json:"again,omitempty"`
	Type    events.Type     `json:"type"`
	Day     string          `json:"day,omitempty"`
	Session *string         `json:"session,omitempty"`
	Code    string          `json:"code,omitempty"`
	Data    json.RawMessage `json:"data"`
}

// foldDay is the day of a line that names none; foldNow the last day the
// answers count.
const foldDay = "2026-11-16"

var foldNow = time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)

var foldNodes = map[string]hubwire.Node{"a": nodeA, "b": nodeB}

// hubFoldCase is a fold case with its messages.
type hubFoldCase struct {
	foldcase.Case
	msgs []natsjs.Message
}

// hubFoldCases reads every fold case of testdata/fold.
func hubFoldCases(tb testing.TB) []hubFoldCase {
	tb.Helper()
	var out []hubFoldCase
	for _, c := range foldcase.Read(tb, "testdata/fold") {
		out = append(out, hubFoldCase{c, foldMessages(tb, c)})
	}
	return out
}

// foldMessages returns the messages of a case's lines, numbered from 1 as
// the aggregate numbers them.
func foldMessages(tb testing.TB, c foldcase.Case) []natsjs.Message {
	tb.Helper()
	var out []natsjs.Message
	next := map[string]uint64{}
	for _, fl := range foldcase.Lines[hubFoldLine](tb, c) {
		i := len(out) + 1
		var msg natsjs.Message
		if fl.Again > 0 {
			if fl.Again >= i {
				tb.Fatalf("%s: message %d: again %d: there are %d messages before it", c.File, i, fl.Again, i-1)
			}
			msg = out[fl.Again-1]
		} else {
			node, ok := foldNodes[fl.Node]
			if !ok {
				tb.Fatalf("%s: message %d: node %q: want a or b", c.File, i, fl.Node)
			}
			seq := fl.Seq
			if seq == 0 {
				seq = next[fl.Node] + 1
			}
			next[fl.Node] = max(next[fl.Node], seq)
			msg = sourced(node, foldEvent(tb, c.File, i, node, fl), seq)
		}
		msg.Seq = uint64(i)
		out = append(out, msg)
	}
	return out
}

// foldEvent returns the event of a line: of the node's workspace, with
// an id and a time set by its number i among the messages.
func foldEvent(tb testing.TB, file string, i int, n hubwire.Node, fl hubFoldLine) events.Event {
	tb.Helper()
	ev, err := events.New(n.Workspace, fl.Type, fl.Data)
	if err != nil {
		tb.Fatalf("%s: message %d: %v", file, i, err)
	}
	ev.ID = fmt.Sprintf("01JHF000000000000000%06d", i)
	day := fl.Day
	if day == "" {
		day = foldDay
	}
	ev.Time = fmt.Sprintf("%sT10:%02d:%02d.000Z", day, i/60%60, i%60)
	ev.SessionID = "s1"
	if fl.Session != nil {
		ev.SessionID = *fl.Session
	}
	if fl.Code != "" {
		ev.Outcome, ev.ErrorCode = events.OutcomeError, fl.Code
	}
	return ev
}

// renderHub renders what the hub's read models of p answer: the stats
// (with the evidence) of every team over the week up to foldNow, the
// review queue (the reviews and the drafts in progress), and each node's
// chain.
func renderHub(tb testing.TB, p *projector) string {
	tb.Helper()
	st, err := p.stats(Query{Days: 7, Now: foldNow})
	if err != nil {
		tb.Fatal(err)
	}
	q := p.reviews
	q.mu.Lock()
	drafts, open := q.drafts, q.open
	q.mu.Unlock()
	models := struct {
		Stats   hubwire.Stats                `json:"stats"`
		Reviews []hubwire.Review             `json:"reviews"`
		Drafts  any                          `json:"drafts"`
		Open    map[string]string            `json:"openReviews"`
		Chains  map[string]hubwire.NodeChain `json:"chains"`
	}{Stats: st, Reviews: q.list(nil, true), Drafts: drafts, Open: open, Chains: map[string]hubwire.NodeChain{}}
	for name, n := range foldNodes {
		if models.Chains[name], err = p.nodeChain(n, 0); err != nil {
			tb.Fatal(err)
		}
	}
	return foldcase.JSON(tb, models)
}

package hub

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/txtar"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/events/natsjs"
	"github.com/clumsies/clumsies/hub/hubwire"
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

// hubFoldCase is a fold case read from its file.
type hubFoldCase struct {
	name string
	file string
	ar   *txtar.Archive
	msgs []natsjs.Message
}

// hubFoldCases reads every fold case of testdata/fold.
func hubFoldCases(tb testing.TB) []hubFoldCase {
	tb.Helper()
	files, err := filepath.Glob("testdata/fold/*.txtar")
	if err != nil || len(files) == 0 {
		tb.Fatalf("no fold cases: %v", err)
	}
	var out []hubFoldCase
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, hubFoldCase{name: strings.TrimSuffix(filepath.Base(file), ".txtar"), file: file, ar: ar,
			msgs: foldMessages(tb, file, foldSection(tb, ar, "events"))})
	}
	return out
}

// foldMessages returns the messages of a case's lines, numbered from 1 as
// the aggregate numbers them.
func foldMessages(tb testing.TB, file, text string) []natsjs.Message {
	tb.Helper()
	var out []natsjs.Message
	next := map[string]uint64{}
	for n, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		var fl hubFoldLine
		dec := json.NewDecoder(strings.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&fl); err != nil {
			tb.Fatalf("%s: events line %d: %v", file, n+1, err)
		}
		var msg natsjs.Message
		if fl.Again > 0 {
			if fl.Again > len(out) {
				tb.Fatalf("%s: events line %d: again %d: there are %d messages before it", file, n+1, fl.Again, len(out))
			}
			msg = out[fl.Again-1]
		} else {
			node, ok := foldNodes[fl.Node]
			if !ok {
				tb.Fatalf("%s: events line %d: node %q: want a or b", file, n+1, fl.Node)
			}
			seq := fl.Seq
			if seq == 0 {
				seq = next[fl.Node] + 1
			}
			next[fl.Node] = max(next[fl.Node], seq)
			msg = sourced(node, foldEvent(tb, file, n+1, len(out)+1, node, fl), seq)
		}
		msg.Seq = uint64(len(out) + 1)
		out = append(out, msg)
	}
	return out
}

// foldEvent returns the event of a line: of the node's workspace, with
// an id and a time set by its number i among the messages.
func foldEvent(tb testing.TB, file string, line, i int, n hubwire.Node, fl hubFoldLine) events.Event {
	tb.Helper()
	ev, err := events.New(n.Workspace, fl.Type, fl.Data)
	if err != nil {
		tb.Fatalf("%s: events line %d: %v", file, line, err)
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

func foldSection(tb testing.TB, ar *txtar.Archive, name string) string {
	tb.Helper()
	for _, f := range ar.Files {
		if f.Name == name {
			return string(f.Data)
		}
	}
	tb.Fatalf("no section %q", name)
	return ""
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
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(models); err != nil {
		tb.Fatal(err)
	}
	return buf.String()
}

// writeWant replaces the want section of c's file with want.
func (c hubFoldCase) writeWant(tb testing.TB, want string) {
	tb.Helper()
	for i := range c.ar.Files {
		if c.ar.Files[i].Name == "want" {
			c.ar.Files[i].Data = []byte(want)
		}
	}
	if err := os.WriteFile(c.file, txtar.Format(c.ar), 0o644); err != nil {
		tb.Fatal(err)
	}
}

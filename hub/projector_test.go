package hub

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"testing"
	"time"

	"github.com/cockroachdb/pebble/v2"
	"github.com/nats-io/nats.go"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/events/natsjs"
	"github.com/clumsies/clumsies/hub/hubwire"
	"github.com/clumsies/clumsies/projections/engine"
)

var (
	nodeA = hubwire.Node{ID: "n-aaaaaaaaaaaaaaaa", Team: "red", Workspace: "ws-a", Member: "ann"}
	nodeB = hubwire.Node{ID: "n-bbbbbbbbbbbbbbbb", Team: "blue", Workspace: "ws-b", Member: "bob"}
)

func testProjector(t *testing.T) *projector {
	t.Helper()
	nodes := map[string]hubwire.Node{nodeA.ID: nodeA, nodeB.ID: nodeB}
	p, err := openProjector(t.TempDir(), func(id string) (hubwire.Node, bool) { n, ok := nodes[id]; return n, ok }, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.close() })
	return p
}

// sourced returns ev as the aggregate holds it when sourced from n at
// ledger sequence seq.
func sourced(n hubwire.Node, ev events.Event, seq uint64) natsjs.Message {
	data, err := events.Encode(ev)
	if err != nil {
		panic(err)
	}
	hdr := nats.Header{}
	hdr.Set(nats.MsgIdHdr, ev.ID)
	hdr.Set(streamSourceHeader, fmt.Sprintf("%s:abcd %d %s %s clumsies.%s.%s", ledgerStream(n.Workspace), seq,
		ledgerSubjects(n.Workspace), nodeSubjects(n), n.Workspace, ev.Type))
	return natsjs.Message{Subject: fmt.Sprintf("hub.%s.%s.%s.%s", n.Team, n.Workspace, n.ID, ev.Type), Header: hdr, Data: data}
}

func event(tb testing.TB, ws string, t events.Type, day string, payload any) events.Event {
	tb.Helper()
	ev, err := events.New(ws, t, payload)
	if err != nil {
		tb.Fatal(err)
	}
	ev.Time = day + "T10:00:00.000Z"
	ev.SessionID = "s-" + ws
	return ev
}

func refer(tb testing.TB, ws, day string, refs ...[2]string) events.Event {
	var d events.ReferData
	for _, r := range refs {
		d.Refs = append(d.Refs, events.Ref{RuleID: r[0], ConstraintID: r[1]})
	}
	return event(tb, ws, events.TypeRefer, day, d)
}

// applyAll numbers the entries from the projector's checkpoint and applies
// them in one batch.
func applyAll(t *testing.T, p *projector, es ...natsjs.Message) {
	t.Helper()
	seq := p.Applied()
	for i := range es {
		seq++
		es[i].Seq = seq
	}
	if err := p.apply(es); err != nil {
		t.Fatal(err)
	}
}

func TestProjector_CountsOnceAndRefusesForgeries(t *testing.T) {
	p := testProjector(t)
	day := "2026-11-16" // a Monday
	pub := event(t, "ws-a", events.TypeCatalogPublish, day, events.PublishData{ID: "p-1", Kind: "rule", Path: "style/A.md",
		Body: "# A\n\nWhat A asks.\n\n## C\n\n- one\n- two\n- three\n"})
	pub2 := event(t, "ws-a", events.TypeCatalogPublish, day, events.PublishData{ID: "p-2", Kind: "workflow", Path: "workflow/W.md",
		Body: "# W\n\nHow W goes.\n\n## Steps\n\n1. first\n"})
	r1 := refer(t, "ws-a", day, [2]string{"p-1", "C/1"}, [2]string{"p-1", "C/2"})
	r2 := refer(t, "ws-a", "2026-11-18", [2]string{"p-1", "C/1"}, [2]string{"p-9", "X"})
	rb := refer(t, "ws-b", day, [2]string{"p-b", "K"})

	forgedSubject := sourced(nodeA, refer(t, "ws-a", day, [2]string{"p-1", "C/1"}), 9)
	forgedSubject.Subject = fmt.Sprintf("hub.%s.%s.%s.attest.refer", nodeB.Team, nodeB.Workspace, nodeB.ID)      // A's source, B's subject
	forgedEnvelope := sourced(nodeA, refer(t, "ws-b", day, [2]string{"p-b", "K"}), 10)                           // A's source and subject, B's workspace
	wrongTeam := sourced(hubwire.Node{ID: nodeA.ID, Team: "blue", Workspace: "ws-a"}, refer(t, "ws-a", day), 13) // A under another team
	wrongID := sourced(nodeA, refer(t, "ws-a", day, [2]string{"p-1", "C/1"}), 11)
	wrongID.Header.Set(nats.MsgIdHdr, events.NewID())
	noHeader := sourced(nodeA, refer(t, "ws-a", day, [2]string{"p-1", "C/1"}), 12)
	noHeader.Header.Del(streamSourceHeader)

	applyAll(t, p, sourced(nodeA, pub, 1), sourced(nodeA, pub2, 2), sourced(nodeA, r1, 3), sourced(nodeB, rb, 1))
	// The same events again, as a re-sourced node would deliver them past
	// the aggregate's dedupe window, then the forgeries.
	applyAll(t, p, sourced(nodeA, r1, 3), sourced(nodeB, rb, 1), sourced(nodeA, r2, 4),
		forgedSubject, forgedEnvelope, wrongTeam, wrongID, noHeader)

	now, _ := time.Parse(time.DateOnly, "2026-11-20")
	st, err := p.stats(Query{Days: 30, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	// Sessions that refer without a memsetup or a hook are of neither
	// kind (sessionkind_test.go).
	if st.Totals.Events != 5 || st.Totals.Refs != 5 || st.Totals.Sessions != 0 || st.Refused != 5 {
		t.Fatalf("got events %d, refs %d, sessions %d, refused %d; want 5, 5, 0, 5",
			st.Totals.Events, st.Totals.Refs, st.Totals.Sessions, st.Refused)
	}
	if st.Totals.Workspaces != 2 || st.Totals.Nodes != 2 || st.Totals.Members != 2 || st.Totals.ActiveDays != 2 {
		t.Fatalf("got %+v, want 2 workspaces, nodes and members over 2 active days", st.Totals)
	}
	// ws-a publishes p-1 and p-2, refers p-1 (published) and p-9
	// (unlisted); ws-b refers p-b, unlisted.
	if c := st.Coverage; c.Published != 2 || c.Referred != 1 || c.Unlisted != 2 || c.Ratio != 0.5 {
		t.Fatalf("coverage %+v, want 1 of 2 published referred, 2 unlisted", c)
	}
	// p-1 has C/1, C/2 and C/3, of which refs named C/1 and C/2; p-2's
	// Steps/1 was never named; p-9's X is not a published constraint.
	if c := st.Coverage; c.Constraints != 4 || c.ConstraintsReferred != 2 || c.ConstraintRatio != 0.5 {
		t.Fatalf("constraint coverage %+v, want 2 of 4 published constraints referred", c)
	}
	if len(st.TopRules) == 0 || st.TopRules[0].ID != "p-1" || st.TopRules[0].Refs != 3 || st.TopRules[0].Path != "style/A.md" {
		t.Fatalf("top rules %+v, want p-1 (style/A.md) first with 3 refs", st.TopRules)
	}
	for _, r := range st.Rules {
		if r.ID == "p-1" && (len(r.Constraints) != 2 || r.Constraints[0].Refs != 2 || r.Constraints[1].Refs != 1) {
			t.Fatalf("constraints of p-1: %+v, want C/1: 2, C/2: 1", r.Constraints)
		}
	}
	t.Run("NodeNotYetKnown", func(t *testing.T) {
		before := p.Applied()
		late := hubwire.Node{ID: "n-cccccccccccccccc", Team: "red", Workspace: "ws-a"}
		err := p.apply([]natsjs.Message{func() natsjs.Message { e := sourced(late, refer(t, "ws-a", day), 1); e.Seq = before + 1; return e }()})
		if !errors.Is(err, errNodeNotYetKnown) || p.Applied() != before {
			t.Fatalf("a message of a node not yet in the registry: %v, applied %d; want errNodeNotYetKnown and nothing applied", err, p.Applied())
		}
	})
	if seq, _ := p.nodeSeq(nodeA.ID); seq != 4 {
		t.Fatalf("node A's last sequence %d, want 4 (forgeries do not move it)", seq)
	}

	t.Run("Weekly", func(t *testing.T) {
		st, err := p.stats(Query{Days: 30, Now: now, Period: hubwire.PeriodWeekly})
		if err != nil {
			t.Fatal(err)
		}
		// 2026-10-22 to 2026-11-20: five weeks from Monday 2026-10-19, the
		// quiet ones with zeros.
		if len(st.Trend) != 5 || st.Trend[0].Period != "2026-10-19" || st.Trend[4].Period != "2026-11-16" || st.Trend[4].Refs != 5 || st.Trend[0].Refs != 0 {
			t.Fatalf("weekly trend %+v, want five weeks from 2026-10-19, the last (2026-11-16) with 5 refs", st.Trend)
		}
	})
	t.Run("DailyEveryDay", func(t *testing.T) {
		if len(st.Trend) != 30 || st.Trend[0].Period != "2026-10-22" || st.Trend[29].Period != "2026-11-20" {
			t.Fatalf("daily trend has %d points (%+v), want one for each of the 30 days", len(st.Trend), st.Trend)
		}
		if st.Trend[25].Period != "2026-11-16" || st.Trend[25].Refs != 3 || st.Trend[26].Refs != 0 || st.Trend[27].Refs != 2 {
			t.Fatalf("daily trend %+v, want 3 refs on 2026-11-16, none on 11-17, 2 on 11-18", st.Trend[25:28])
		}
	})
	t.Run("Teams", func(t *testing.T) {
		st, err := p.stats(Query{Days: 30, Now: now, Teams: []string{"blue"}})
		if err != nil {
			t.Fatal(err)
		}
		if st.Totals.Refs != 1 || st.Totals.Workspaces != 1 || st.Coverage.Published != 0 {
			t.Fatalf("team blue: %+v, %+v; want 1 ref in 1 workspace, nothing published", st.Totals, st.Coverage)
		}
	})
	t.Run("Rule", func(t *testing.T) {
		st, err := p.stats(Query{Days: 30, Now: now, Rule: "p-1"})
		if err != nil {
			t.Fatal(err)
		}
		if st.Totals.Refs != 3 {
			t.Fatalf("rule p-1: %d refs, want 3", st.Totals.Refs)
		}
	})
	t.Run("Days", func(t *testing.T) {
		st, err := p.stats(Query{Days: 3, Now: now})
		if err != nil {
			t.Fatal(err)
		}
		if st.Totals.Refs != 2 {
			t.Fatalf("last 3 days: %d refs, want 2 (those of 2026-11-18)", st.Totals.Refs)
		}
	})
	t.Run("BadQuery", func(t *testing.T) {
		if _, err := p.stats(Query{Period: "hourly"}); err == nil {
			t.Fatal("period hourly was accepted")
		}
	})
}

// TestProjector_Deterministic applies the same messages, in one batch and
// one by one, into two stores and compares every key and value.
func TestProjector_Deterministic(t *testing.T) {
	var es []natsjs.Message
	for i := range 50 {
		day := fmt.Sprintf("2026-11-%02d", 1+i%20)
		es = append(es, sourced(nodeA, refer(t, "ws-a", day, [2]string{"p-1", fmt.Sprintf("C/%d", i%3)}), uint64(i+1)))
	}
	one, two := testProjector(t), testProjector(t)
	applyAll(t, one, es...)
	for _, e := range es {
		applyAll(t, two, e)
	}
	if a, b := dump(t, one.db), dump(t, two.db); !bytes.Equal(a, b) {
		t.Fatal("the same messages gave different rows")
	}
}

func dump(t *testing.T, db *pebble.DB) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := engine.Dump(db, &b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestProjector_SkipsWhatItApplied checks the runner's contract (see
// engine.Runner): messages at or before the checkpoint, which a source
// that follows again may deliver, are skipped, and the rest of the batch
// is applied.
func TestProjector_SkipsWhatItApplied(t *testing.T) {
	p := testProjector(t)
	day := "2026-11-16"
	applyAll(t, p, sourced(nodeA, refer(t, "ws-a", day), 1), sourced(nodeA, refer(t, "ws-a", day), 2), sourced(nodeA, refer(t, "ws-a", day), 3))
	again := sourced(nodeA, refer(t, "ws-a", day), 4) // another event, at a sequence applied
	again.Seq = 3
	next := sourced(nodeA, refer(t, "ws-a", day), 5)
	next.Seq = 4
	if err := p.apply([]natsjs.Message{again, next}); err != nil {
		t.Fatal(err)
	}
	now, _ := time.Parse(time.DateOnly, "2026-11-20")
	st, err := p.stats(Query{Days: 30, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if st.Totals.Events != 4 || st.Refused != 0 || p.Applied() != 4 {
		t.Fatalf("got %d events, %d refused, applied %d; want 4, 0, 4", st.Totals.Events, st.Refused, p.Applied())
	}
}

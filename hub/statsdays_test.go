package hub

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/pebble/v2"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/events/natsjs"
	"github.com/clumsies/clumsies/evidence"
	"github.com/clumsies/clumsies/hub/hubwire"
)

// daysNodes are the nodes of the days' tests: two members of one
// workspace, a member in two workspaces of a team, another team.
var daysNodes = []hubwire.Node{
	nodeA, nodeB,
	{ID: "n-cccccccccccccccc", Team: "red", Workspace: "ws-a", Member: "cat"},
	{ID: "n-dddddddddddddddd", Team: "red", Workspace: "ws-d", Member: "ann"},
}

// daysFeeder applies events of nodes at given days, each batch in one
// commit, numbering each node's ledger.
type daysFeeder struct {
	t    *testing.T
	p    *projector
	seqs map[string]uint64
	msgs []natsjs.Message
}

func newDaysFeeder(t *testing.T) *daysFeeder {
	t.Helper()
	nodes := map[string]hubwire.Node{}
	for _, n := range daysNodes {
		nodes[n.ID] = n
	}
	p, err := openProjector(t.TempDir(), func(id string) (hubwire.Node, bool) { n, ok := nodes[id]; return n, ok }, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.close() })
	return &daysFeeder{t: t, p: p, seqs: map[string]uint64{}}
}

// add queues an event of session of node n on day d.
func (f *daysFeeder) add(n hubwire.Node, session, d string, typ events.Type, payload any) {
	f.t.Helper()
	ev := event(f.t, n.Workspace, typ, d, payload)
	ev.SessionID = session
	f.seqs[n.ID]++
	f.msgs = append(f.msgs, sourced(n, ev, f.seqs[n.ID]))
}

// commit applies the queued events in one batch.
func (f *daysFeeder) commit() {
	f.t.Helper()
	applyAll(f.t, f.p, f.msgs...)
	f.msgs = nil
}

// daysComputed counts the days' parts c computed: the counters' and the
// sessions' of a day under a query.
func (c *statsCaches) daysComputed() uint64 {
	c.dayCounts.mu.Lock()
	n := c.dayCounts.computed
	c.dayCounts.mu.Unlock()
	c.daySessions.mu.Lock()
	defer c.daySessions.mu.Unlock()
	return n + c.daySessions.computed
}

// TestStats_ReadAfterAChangeComputesItsDays checks what a read after a
// change costs: the parts of the days the change touched, computed
// again, and no other: a late event, one of a session last seen later,
// one that moves a session's last day, and a reid, which touches every
// day. A commit drops the parts it made stale, read or not.
func TestStats_ReadAfterAChangeComputesItsDays(t *testing.T) {
	f := newDaysFeeder(t)
	now, _ := time.Parse(time.DateOnly, "2026-11-20")
	q := Query{Days: 30, Now: now}
	for i := range 30 {
		d := day(now.AddDate(0, 0, -i))
		f.add(nodeA, "s-"+d, d, events.TypeRefer, events.ReferData{Refs: []events.Ref{{RuleID: "p-1", ConstraintID: "C/1"}}})
	}
	f.commit()
	read := func(what string, want uint64) hubwire.Stats {
		t.Helper()
		n := f.p.caches.daysComputed()
		st, err := f.p.stats(q)
		if err != nil {
			t.Fatal(err)
		}
		if got := f.p.caches.daysComputed() - n; got != want {
			t.Errorf("%s: computed %d days' parts, want %d", what, got, want)
		}
		fresh, err := f.p.statsWith(q, &statsCaches{})
		if err != nil {
			t.Fatal(err)
		}
		if got, want, same := sameJSON(t, st, fresh); !same {
			t.Errorf("%s: answered\n%s\ncomputed afresh\n%s", what, got, want)
		}
		return st
	}
	read("the first read", 60) // the counters and the sessions of 30 days
	read("a read with nothing changed", 0)

	held := func() int {
		e1, _ := f.p.caches.dayCounts.held()
		e2, _ := f.p.caches.daySessions.held()
		return e1 + e2
	}
	// A late event of a new session, 10 days ago: that day's counters
	// and sessions.
	f.add(nodeA, "late", day(now.AddDate(0, 0, -10)), events.TypeRefer, events.ReferData{Refs: []events.Ref{{RuleID: "p-1", ConstraintID: "C/1"}}})
	f.commit()
	if got := held(); got != 58 {
		t.Errorf("after a commit touching one day, unread, %d days' parts are kept, want 58", got)
	}
	read("a read after a late event", 2)
	// An event 20 days ago of the session last seen 5 days ago: the
	// counters of the first, the sessions of the second.
	f.add(nodeA, "s-"+day(now.AddDate(0, 0, -5)), day(now.AddDate(0, 0, -20)), events.TypeRefer, events.ReferData{Refs: []events.Ref{{RuleID: "p-1", ConstraintID: "C/2"}}})
	f.commit()
	read("a read after an event of a session seen later", 2)
	// The session last seen 5 days ago seen today: the counters of today,
	// the sessions of both days.
	f.add(nodeA, "s-"+day(now.AddDate(0, 0, -5)), day(now), events.TypeRefer, events.ReferData{Refs: []events.Ref{{RuleID: "p-1", ConstraintID: "C/1"}}})
	f.commit()
	st := read("a read after a session's last day moved", 3)
	if got := len(st.Evidence.Sessions); got != 31 {
		t.Errorf("%d sessions in the window, want 31", got)
	}
	// A reid: every day's ids.
	f.add(nodeA, "", day(now), events.TypeCatalogReid, events.ReidData{From: "p-1", To: "p-new", Kind: "rule", Path: "style/A.md"})
	f.commit()
	st = read("a read after a reid", 60)
	if len(st.Rules) != 1 || st.Rules[0].ID != "p-new" || st.Rules[0].Refs != 33 {
		t.Errorf("after the reid the rules are %+v, want p-new with 33 refs", st.Rules)
	}
}

// TestStats_DaysAddUpToTheWindow checks, over rounds of random events at
// random days (late ones, sessions seen over several days, reids,
// publishes, hosts new to a node, duplicates), that every answer read
// with the parts the projector keeps is the one computed afresh, for
// every filter and period; that the sessions of a window are those of
// every evidence row last seen in it, judged against the hosts of all
// its node's rows, as a pass over every row finds them; and that the
// counters' totals are the rows' sums.
func TestStats_DaysAddUpToTheWindow(t *testing.T) {
	for seed := range uint64(8) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			rnd := rand.New(rand.NewPCG(seed, 36))
			f := newDaysFeeder(t)
			now, _ := time.Parse(time.DateOnly, "2026-11-20")
			rules := []string{"p-1", "p-2", "p-3"}
			hosts := []string{"claude-code", "codex", ""}
			queries := []Query{{Now: now}, {Now: now, Period: hubwire.PeriodWeekly, Days: 60}, {Now: now, Period: hubwire.PeriodMonthly, Days: 90},
				{Now: now, Days: 1}, {Now: now, Since: "2026-10-01", Until: "2026-10-31"}, {Now: now, Teams: []string{"red"}},
				{Now: now, Teams: []string{"blue"}}, {Now: now, Workspace: "ws-a"}, {Now: now, Rule: "p-1"}, {Now: now, Rule: "p-new"},
				{Now: now, Member: "ann"}, {Now: now, Member: "cat", Days: 45}}
			var sent []natsjs.Message
			for round := range 12 {
				for range 1 + rnd.IntN(25) {
					n := daysNodes[rnd.IntN(len(daysNodes))]
					// The round's day, as time passes, or a late one.
					d := day(now.AddDate(0, 0, round-11))
					if rnd.IntN(4) == 0 {
						d = day(now.AddDate(0, 0, -rnd.IntN(100))) // late
					}
					// Sessions of a round or two: some seen over two days,
					// the older ones left as they were.
					session := fmt.Sprintf("s%d.%d", (round+rnd.IntN(2))/2, rnd.IntN(4))
					rule := rules[rnd.IntN(len(rules))]
					switch rnd.IntN(10) {
					case 0:
						body := "# R\n\nWhat it asks.\n\n## C\n\n- one\n"
						if rnd.IntN(2) == 0 {
							body = "---\npaths: [\"api/**\"]\n---\n" + body
						}
						f.add(n, "", d, events.TypeCatalogPublish, events.PublishData{ID: rule, Kind: "rule", Path: "style/" + rule + ".md", Body: body})
					case 1:
						if rnd.IntN(3) == 0 {
							f.add(n, "", d, events.TypeCatalogReid, events.ReidData{From: rule, To: "p-new", Kind: "rule", Path: "style/" + rule + ".md"})
						} else {
							f.add(n, "", d, events.TypeCatalogRemove, events.RemoveData{ID: rule})
						}
					case 2:
						f.add(n, session, d, events.TypeFileEdit, events.FileEditData{Host: hosts[rnd.IntN(len(hosts))], Paths: []string{"api/x.go"}, Rules: []string{rule}})
					case 3:
						f.add(n, session, d, events.TypeSessionStart, events.SessionStartData{Host: hosts[rnd.IntN(len(hosts))], Model: "m"})
					case 4:
						f.add(n, session, d, events.TypeLoad, events.LoadData{Items: []events.LoadedItem{{ID: rule, Hash: "h", Changed: true}}})
					case 5:
						f.add(n, session, d, events.TypeSetup, events.SetupData{Hash: "sha256:1", Changed: true})
					case 6:
						f.add(n, session, d, events.TypeAgentReport, events.AgentReportData{Summary: "done"})
					case 7:
						if len(sent) > 0 { // a duplicate
							f.msgs = append(f.msgs, sent[rnd.IntN(len(sent))])
							break
						}
						fallthrough
					default:
						f.add(n, session, d, events.TypeRefer, events.ReferData{Refs: []events.Ref{{RuleID: rule, ConstraintID: "C/1", Revision: uint64(rnd.IntN(3))}}})
					}
				}
				batch := slices.Clone(f.msgs)
				f.commit()
				sent = append(sent, batch...)
				checkStatsRows(t, f.p.db)
				for _, q := range queries {
					stage := fmt.Sprintf("round %d, %+v", round, q)
					kept, err := f.p.stats(q)
					if err != nil {
						t.Fatal(err)
					}
					fresh, err := f.p.statsWith(q, &statsCaches{})
					if err != nil {
						t.Fatal(err)
					}
					if got, want, same := sameJSON(t, kept, fresh); !same {
						t.Fatalf("%s: answered\n%s\ncomputed afresh\n%s", stage, got, want)
					}
					checkAgainstRows(t, stage, f.p.db, q, kept)
				}
			}
		})
	}
}

// sameJSON returns got and want as JSON, and whether they are the same.
func sameJSON(t *testing.T, got, want any) (g, w []byte, same bool) {
	t.Helper()
	var err error
	if g, err = json.Marshal(got); err == nil {
		w, err = json.Marshal(want)
	}
	if err != nil {
		t.Fatal(err)
	}
	return g, w, bytes.Equal(g, w)
}

// evidenceRows reads every evidence row of db by key.
func evidenceRows(t *testing.T, db pebble.Reader) map[string]evidenceRow {
	t.Helper()
	out := map[string]evidenceRow{}
	it, err := db.NewIter(&pebble.IterOptions{LowerBound: prefixEvidence(), UpperBound: prefixEnd(prefixEvidence())})
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	for it.First(); it.Valid(); it.Next() {
		var row evidenceRow
		if err := json.Unmarshal(it.Value(), &row); err != nil {
			t.Fatal(err)
		}
		out[string(it.Key())] = row
	}
	return out
}

// checkStatsRows checks the evidence's rows for the stats against its
// sessions' rows: each session under its last day and no other, and each
// node's hosts those of its sessions (evidence.Hosts).
func checkStatsRows(t *testing.T, db *pebble.DB) {
	t.Helper()
	want := map[string]bool{}
	for k, row := range evidenceRows(t, db) {
		p := strings.Split(k, sep)
		want[string(keyLastSeen(row.Last, p[1], p[2], p[3], p[4]))] = true
		h := evidence.Hosts{}
		h.Add(&row.Row)
		for host := range h {
			want[string(keyNodeHost(p[1], p[2], p[3], host))] = true
		}
	}
	got := map[string]bool{}
	for _, prefix := range []string{"x" + sep, "y" + sep} {
		it, err := db.NewIter(&pebble.IterOptions{LowerBound: []byte(prefix), UpperBound: prefixEnd([]byte(prefix))})
		if err != nil {
			t.Fatal(err)
		}
		for it.First(); it.Valid(); it.Next() {
			got[string(it.Key())] = true
		}
		it.Close()
	}
	for k := range want {
		if !got[k] {
			t.Errorf("row %q missing", k)
		}
	}
	for k := range got {
		if !want[k] {
			t.Errorf("row %q of no session", k)
		}
	}
}

// checkAgainstRows checks st, q's answer, against a pass over every row:
// the sessions (those of every evidence row last seen in the window,
// judged against the hosts of every row of its node) and the counters'
// totals.
func checkAgainstRows(t *testing.T, stage string, db *pebble.DB, q Query, st hubwire.Stats) {
	t.Helper()
	snap := db.NewSnapshot()
	defer snap.Close()
	from, to, err := q.window()
	if err != nil {
		t.Fatal(err)
	}
	facts, _, err := catalogsOf(snap)
	if err != nil {
		t.Fatal(err)
	}
	aliases, err := readAliases(snap)
	if err != nil {
		t.Fatal(err)
	}
	rows := evidenceRows(t, snap)
	hosts := map[nodeOf]evidence.Hosts{}
	for k, row := range rows {
		p := strings.Split(k, sep)
		n := nodeOf{p[1], p[2], p[3]}
		if hosts[n] == nil {
			hosts[n] = evidence.Hosts{}
		}
		hosts[n].Add(&row.Row)
	}
	if q.Rule == "" {
		sessions := []hubwire.SessionEvidence{}
		for k, row := range rows {
			p := strings.Split(k, sep)
			w := workspaceOf{p[1], p[2]}
			if row.Last < day(from) || row.Last > day(to) || !q.ofMember(row.Member) ||
				!q.allows(counter{Team: w.team, Workspace: w.ws, Metric: metricRefs}) {
				continue
			}
			row.Follow(func(id string) string { return aliases.of(w.team, w.ws, id) })
			if s := row.Session(p[4], facts[w], hosts[nodeOf{p[1], p[2], p[3]}]); s.Any() {
				sessions = append(sessions, hubwire.SessionEvidence{Team: w.team, WorkspaceID: w.ws, Node: p[3], Member: row.Member, Session: s})
			}
		}
		slices.SortFunc(sessions, compareSessions)
		if got, want, same := sameJSON(t, st.Evidence.Sessions, sessions); !same {
			t.Fatalf("%s: the sessions\n%s\nfrom every row\n%s", stage, got, want)
		}
	}
	var events, refs uint64
	days, wss := map[string]bool{}, map[string]bool{}
	it, err := snap.NewIter(&pebble.IterOptions{LowerBound: []byte("c" + sep), UpperBound: prefixEnd([]byte("c" + sep))})
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	for it.First(); it.Valid(); it.Next() {
		c, ok := parseCounter(it.Key())
		if c.Rule != "" {
			c.Rule = aliases.of(c.Team, c.Workspace, c.Rule)
		}
		if !ok || c.Day < day(from) || c.Day > day(to) || !q.allows(c) || !q.ofMember(c.Member) {
			continue
		}
		switch c.Metric {
		case metricEvents:
			events += getUint(it.Value())
			days[c.Day], wss[c.Workspace] = true, true
		case metricRefs:
			refs += getUint(it.Value())
		}
	}
	if st.Totals.Events != events || st.Totals.Refs != refs || st.Totals.ActiveDays != len(days) || st.Totals.Workspaces != len(wss) {
		t.Fatalf("%s: totals %+v; the rows count %d events, %d refs, %d active days, %d workspaces", stage, st.Totals, events, refs, len(days), len(wss))
	}
}

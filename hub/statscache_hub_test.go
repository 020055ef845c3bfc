package hub_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/hub"
	"github.com/clumsies/clumsies/hub/hubwire"
)

// statsNode appends events of sessions to a joined node: publishes,
// loads, refs and reports, as agents leave them.
type statsNode struct {
	t  *testing.T
	tn *testNode
	// appended counts the events appended.
	appended *uint64
}

func (s statsNode) append(session string, typ events.Type, payload any) {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	ev, err := events.New(s.tn.ws.ID(), typ, payload)
	if err != nil {
		s.t.Fatal(err)
	}
	ev.SessionID = session
	if _, err := s.tn.n.Log.Append(ctx, ev); err != nil {
		s.t.Fatalf("append: %v", err)
	}
	*s.appended++
}

func (s statsNode) publish(id, path string) {
	s.append("", events.TypeCatalogPublish, events.PublishData{ID: id, Kind: "rule", Path: path, Body: "# " + id + "\n\nWhat it asks.\n\n## C\n\n- one\n"})
}

// sessions appends n sessions named prefix-i, each set up, loading
// rule and referring to its constraint C, and every third reporting.
func (s statsNode) sessions(prefix string, n int, rule string) {
	for i := range n {
		id := fmt.Sprintf("%s-%03d", prefix, i)
		s.append(id, events.TypeSetup, events.SetupData{Hash: "sha256:1", Changed: true})
		s.append(id, events.TypeLoad, events.LoadData{Items: []events.LoadedItem{{ID: rule, Hash: "h", Changed: true}}})
		s.append(id, events.TypeRefer, events.ReferData{Refs: []events.Ref{{RuleID: rule, RuleHash: "h", ConstraintID: "C/1", Name: "C", TextHash: "t"}}})
		if i%3 == 0 {
			s.append(id, events.TypeAgentReport, events.AgentReportData{Summary: "done"})
		}
	}
}

// newRedSessions starts a hub with one node of team red that published
// rule p-1 and appended n sessions using it, every event applied.
func newRedSessions(t *testing.T, n int) (*testHub, statsNode) {
	t.Helper()
	th := newTestHub(t)
	red := statsNode{t, joinNode(t, th, "red", ""), new(uint64)}
	red.publish("p-1", "style/A.md")
	red.sessions("r", n, "p-1")
	waitApplied(t, th, *red.appended)
	return th, red
}

// statsQueries are the queries whose answers the tests compare: every
// filter and period.
func statsQueries(ws string) []hub.Query {
	return []hub.Query{{}, {Period: hubwire.PeriodWeekly}, {Period: hubwire.PeriodMonthly, Days: 90}, {Days: 1},
		{Teams: []string{"red"}}, {Teams: []string{"blue", "red"}}, {Teams: []string{}}, {Workspace: ws}, {Rule: "p-1"},
		{Member: "alice"}, {Member: "nobody"}}
}

// jsonOf is v as JSON, for comparing answers whole.
func jsonOf(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// walk reads every page of a list, limit items at a time.
func walk[T any](t *testing.T, list func(cursor string) (hubwire.Page[T], error)) []T {
	t.Helper()
	out := []T{}
	cursor := ""
	for pages := 0; ; pages++ {
		if pages > 1000 {
			t.Fatal("the pages do not end")
		}
		p, err := list(cursor)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, p.Items...)
		if p.Next == "" {
			return out
		}
		cursor = p.Next
	}
}

// sameAnswers checks that what h answers to q (the stats, the summary and
// every page of each list), once computed and again from what it kept,
// is what it computes afresh from its read models; it returns the whole
// answer.
func sameAnswers(t *testing.T, stage string, h *hub.Hub, q hub.Query) hubwire.Stats {
	t.Helper()
	first, err := h.Stats(q)
	if err != nil {
		t.Fatal(err)
	}
	again, err := h.Stats(q)
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := h.StatsRecomputed(q)
	if err != nil {
		t.Fatal(err)
	}
	if first.Applied != fresh.Applied {
		t.Fatalf("%s: the read models moved during the comparison (%d, then %d)", stage, first.Applied, fresh.Applied)
	}
	want := jsonOf(t, fresh)
	if got := jsonOf(t, first); !bytes.Equal(got, want) {
		t.Errorf("%s, %+v: Stats\n%s\nrecomputed\n%s", stage, q, got, want)
	}
	if got := jsonOf(t, again); !bytes.Equal(got, want) {
		t.Errorf("%s, %+v: Stats asked again\n%s\nrecomputed\n%s", stage, q, got, want)
	}

	sum, err := h.StatsSummary(q)
	if err != nil {
		t.Fatal(err)
	}
	capped := fresh
	capped.More = hubwire.StatsMore{Rules: max(0, len(fresh.Rules)-hubwire.SummaryItems), Members: max(0, len(fresh.Members)-hubwire.SummaryItems),
		EvidenceRules: max(0, len(fresh.Evidence.Rules)-hubwire.SummaryItems), Sessions: max(0, len(fresh.Evidence.Sessions)-hubwire.SummaryItems),
		Checks: max(0, len(fresh.Evidence.Checks)-hubwire.SummaryItems)}
	capped.Rules = fresh.Rules[:min(len(fresh.Rules), hubwire.SummaryItems)]
	capped.Members = fresh.Members[:min(len(fresh.Members), hubwire.SummaryItems)]
	capped.Evidence.Rules = fresh.Evidence.Rules[:min(len(fresh.Evidence.Rules), hubwire.SummaryItems)]
	capped.Evidence.Sessions = fresh.Evidence.Sessions[:min(len(fresh.Evidence.Sessions), hubwire.SummaryItems)]
	capped.Evidence.Checks = fresh.Evidence.Checks[:min(len(fresh.Evidence.Checks), hubwire.SummaryItems)]
	for _, r := range fresh.Rules {
		if r.Path != "" && r.Refs == 0 && len(capped.NeverReferred) < hubwire.SummaryItems {
			capped.NeverReferred = append(capped.NeverReferred, r)
		}
	}
	if got, want := jsonOf(t, sum), jsonOf(t, capped); !bytes.Equal(got, want) {
		t.Errorf("%s, %+v: the summary\n%s\nrecomputed\n%s", stage, q, got, want)
	}

	const limit = 3
	used := []hubwire.RuleStats{}
	for _, r := range fresh.Rules {
		if r.Refs > 0 || r.Loads > 0 {
			used = append(used, r)
		}
	}
	pages := []struct {
		list      string
		got, want any
	}{
		{"rules", walk(t, func(c string) (hubwire.Page[hubwire.RuleStats], error) { return h.StatsRules(q, false, c, limit) }), fresh.Rules},
		{"used rules", walk(t, func(c string) (hubwire.Page[hubwire.RuleStats], error) { return h.StatsRules(q, true, c, limit) }), used},
		{"members", walk(t, func(c string) (hubwire.Page[hubwire.MemberStats], error) { return h.StatsMembers(q, c, limit) }), fresh.Members},
		{"evidence rules", walk(t, func(c string) (hubwire.Page[hubwire.RuleEvidence], error) { return h.StatsEvidenceRules(q, c, limit) }), fresh.Evidence.Rules},
		{"sessions", walk(t, func(c string) (hubwire.Page[hubwire.SessionEvidence], error) { return h.StatsSessions(q, c, limit) }), fresh.Evidence.Sessions},
		{"checks", walk(t, func(c string) (hubwire.Page[hubwire.RuleChecks], error) { return h.StatsChecks(q, c, limit) }), fresh.Evidence.Checks},
	}
	for _, p := range pages {
		if got, want := jsonOf(t, p.got), jsonOf(t, p.want); !bytes.Equal(got, want) {
			t.Errorf("%s, %+v: the pages of %s\n%s\nrecomputed\n%s", stage, q, p.list, got, want)
		}
	}
	return fresh
}

// TestStats_KeptAnswersAreTheComputedOnes checks that the stats the hub
// keeps between changes of its read models answer exactly what it
// computes afresh, for every filter and period, the summary and every
// page of each list: as the nodes append, across a restart of the hub,
// and after a rebuild of its read models (which gives the answers of
// before the rebuild).
func TestStats_KeptAnswersAreTheComputedOnes(t *testing.T) {
	th := newTestHub(t)
	var appended uint64
	red := statsNode{t, joinNode(t, th, "red", ""), &appended}
	blue := statsNode{t, joinNode(t, th, "blue", ""), &appended}
	red.publish("p-1", "style/A.md")
	red.publish("p-2", "style/B.md")
	blue.publish("p-3", "style/C.md")
	red.sessions("r", 12, "p-1")
	blue.sessions("b", 7, "p-3")
	waitApplied(t, th, appended)
	queries := statsQueries(red.tn.ws.ID())
	check := func(stage string) []hubwire.Stats {
		var out []hubwire.Stats
		for _, q := range queries {
			out = append(out, sameAnswers(t, stage, th.h, q))
		}
		return out
	}
	before := check("first")

	red.sessions("r2", 25, "p-2") // past the summary's 20 items
	blue.sessions("b2", 3, "p-3")
	waitApplied(t, th, appended)
	after := check("after appends")
	if after[0].Totals.Events <= before[0].Totals.Events || after[0].Totals.Events != appended {
		t.Errorf("after the appends the hub counts %d events (%d before), want %d", after[0].Totals.Events, before[0].Totals.Events, appended)
	}

	th.stop()
	th.start(t)
	red.sessions("r3", 2, "p-1")
	waitApplied(t, th, appended)
	kept := check("after a restart")

	red.tn.close()
	blue.tn.close()
	th.stop()
	if _, err := hub.Rebuild(context.Background(), th.cfg, nil); err != nil {
		t.Fatal(err)
	}
	th.start(t)
	waitApplied(t, th, appended)
	rebuilt := check("after a rebuild")
	for i, q := range queries {
		if got, want := jsonOf(t, rebuilt[i]), jsonOf(t, kept[i]); !bytes.Equal(got, want) {
			t.Errorf("%+v after the rebuild\n%s\nbefore\n%s", q, got, want)
		}
	}
}

// TestStats_ComputedOncePerChange checks what the stats cost: reading the
// summary and then every page of every list, as `hub stats` does, with
// small pages, computes the stats once and the evidence once while the
// read models stay; a dashboard's redraw after a change (the summary and
// the first page of each list) computes them once again, not once per
// list, nor once more for a period of the summary the lists do not name,
// and of its days those the change touched alone.
func TestStats_ComputedOncePerChange(t *testing.T) {
	th, red := newRedSessions(t, 30)
	admin, err := th.cfg.AdminToken()
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(hub.Handler(th.h, admin))
	defer srv.Close()
	// The team's answers, not those waitApplied reads (every team's).
	get := func(path string, v url.Values) hubwire.Page[json.RawMessage] {
		t.Helper()
		v.Set("team", "red")
		var p hubwire.Page[json.RawMessage]
		if err := json.Unmarshal(getOK(t, srv, admin, path, v), &p); err != nil {
			t.Fatalf("GET %s: %v", path, err)
		}
		return p
	}
	lists := []string{"/api/stats/rules", "/api/stats/members", "/api/stats/evidence/rules", "/api/stats/sessions", "/api/stats/checks"}
	computed := func(what string, read func(), want uint64) {
		t.Helper()
		applied := th.h.Health(context.Background()).Applied
		n := th.h.StatsComputed()
		read()
		if th.h.Health(context.Background()).Applied != applied {
			t.Fatalf("%s: the read models moved meanwhile", what)
		}
		if got := th.h.StatsComputed() - n; got != want {
			t.Errorf("%s computed %d stats answers, want %d", what, got, want)
		}
	}
	requests := 0
	computed("the summary and every page of every list, 4 items a page", func() {
		get("/api/stats", url.Values{})
		requests++
		for _, path := range lists {
			v := url.Values{"limit": {"4"}}
			for {
				p := get(path, v)
				requests++
				if p.Next == "" {
					break
				}
				v.Set("cursor", p.Next)
			}
		}
	}, 2)
	if requests < 10 {
		t.Fatalf("only %d requests: want more pages than computations", requests)
	}

	// The dashboard's redraw: the summary of the page's period, the
	// lists' first rows, which name no period.
	redraw := func() {
		get("/api/stats", url.Values{"period": {hubwire.PeriodWeekly}})
		for _, path := range lists {
			get(path, url.Values{"limit": {"50"}})
		}
	}
	computed("a redraw with nothing changed", redraw, 0)
	red.sessions("r2", 1, "p-1")
	waitApplied(t, th, *red.appended)
	days := th.h.StatsDaysComputed()
	computed("a redraw after a change", redraw, 2)
	// Of the 30 days of the window, the day of the change alone: its
	// counters and its sessions.
	if got := th.h.StatsDaysComputed() - days; got != 2 {
		t.Errorf("a redraw after a change of one day computed %d days' parts, want 2", got)
	}
}

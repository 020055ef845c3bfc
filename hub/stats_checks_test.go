package hub

import (
	"log/slog"
	"reflect"
	"testing"
	"time"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/evidence"
	"github.com/clumsies/clumsies/hub/hubwire"
)

// TestProjector_TeamChecks: two workspaces of team red and one of team
// blue run the checks of rule p-1. The hub's checks for red are the sums
// of each red workspace's own (evidence.SumChecks over its sessions, as
// its `clumsies stats --json` computes them): sessions, loaded against
// not, per constraint and per version, naming both workspaces and the
// rule's path; blue's session counts for blue alone. /api/stats/checks
// pages them; a rule filter keeps that rule's checks only.
func TestProjector_TeamChecks(t *testing.T) {
	nodeC := hubwire.Node{ID: "n-cccccccccccccccc", Team: "red", Workspace: "ws-c", Member: "cat"}
	nodes := map[string]hubwire.Node{nodeA.ID: nodeA, nodeB.ID: nodeB, nodeC.ID: nodeC}
	p, err := openProjector(t.TempDir(), func(id string) (hubwire.Node, bool) { n, ok := nodes[id]; return n, ok }, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.close() })
	feed := sessionFeeder(t, p, "2026-11-16")
	body := "---\npaths: [\"api/**\"]\n---\n# A\n\nWhat A asks.\n\n## C\n\n- one\n- two\n"
	for _, n := range []hubwire.Node{nodeA, nodeB, nodeC} {
		feed(n, "", events.TypeCatalogPublish, events.PublishData{ID: "p-1", Kind: "rule", Path: "api/A.md", Body: body})
	}
	check := func(n hubwire.Node, session, hash string, loaded bool, constraints ...string) {
		d := events.CheckData{Host: "claude-code", Via: events.ViaPostTool, Rules: []events.CheckedRule{{ID: "p-1", Hash: hash}}, Files: []string{"api/x.go"}}
		if !loaded {
			d.Unloaded = []string{"p-1"}
		}
		for i, c := range constraints {
			d.Results = append(d.Results, events.CheckResult{Rule: "p-1", Constraint: c, Kind: "forbid", File: "api/x.go", Line: i + 1, Match: "sha256:" + c})
		}
		feed(n, session, events.TypeSessionStart, events.SessionStartData{Host: "claude-code"})
		feed(n, session, events.TypeFileEdit, events.FileEditData{Host: "claude-code", Paths: []string{"api/x.go"}, Rules: []string{"p-1"}})
		feed(n, session, events.TypeCheck, d)
	}
	check(nodeA, "a1", "h1", true, "C/1")
	check(nodeA, "a2", "h1", false)
	check(nodeA, "a3", "h2", false, "C/1", "C/2")
	check(nodeC, "c1", "h2", true)
	check(nodeC, "c2", "h2", false, "C/2")
	check(nodeB, "b1", "h1", true, "C/1")

	now, _ := time.Parse(time.DateOnly, "2026-11-20")
	q := Query{Days: 30, Now: now, Period: "daily"}
	st, err := p.stats(q)
	if err != nil {
		t.Fatal(err)
	}
	perWorkspace := map[string][]evidence.Session{}
	for _, s := range st.Evidence.Sessions {
		perWorkspace[s.WorkspaceID] = append(perWorkspace[s.WorkspaceID], s.Session)
	}
	// The sum of ws-a's and ws-c's own figures.
	var want evidence.CheckTotals
	constraints, versions := map[string]evidence.ConstraintTotals{}, map[string][2]int{}
	// Per version and constraint the sessions that broke it, loaded and
	// not; per version its loaded and unloaded sessions (the shares'
	// denominators, also where a workspace's sessions never broke it).
	broke, of := map[string][2]int{}, map[string][2]int{}
	for _, ws := range []string{"ws-a", "ws-c"} {
		own := evidence.SumChecks(perWorkspace[ws])
		if len(own) != 1 {
			t.Fatalf("%s's own checks: %+v, want p-1's", ws, own)
		}
		o := own[0]
		want.Sessions += o.Sessions
		want.Loaded.Of += o.Loaded.Of
		want.Loaded.Count += o.Loaded.Count
		want.Unloaded.Of += o.Unloaded.Of
		want.Unloaded.Count += o.Unloaded.Count
		for _, c := range o.Constraints {
			s := constraints[c.ID]
			s.ID, s.Found, s.Fixed, s.Rejected, s.Open = c.ID, s.Found+c.Found, s.Fixed+c.Fixed, s.Rejected+c.Rejected, s.Open+c.Open
			constraints[c.ID] = s
		}
		for _, v := range o.Versions {
			versions[v.Hash] = [2]int{versions[v.Hash][0] + v.Sessions, versions[v.Hash][1] + v.Findings.Count}
			of[v.Hash] = [2]int{of[v.Hash][0] + v.Loaded.Of, of[v.Hash][1] + v.Unloaded.Of}
			for _, c := range v.Constraints {
				b := broke[v.Hash+" "+c.ID]
				broke[v.Hash+" "+c.ID] = [2]int{b[0] + c.Loaded.Count, b[1] + c.Unloaded.Count}
			}
		}
	}
	if want.Sessions != 5 || want.Loaded.Of != 2 || want.Loaded.Count != 1 || want.Unloaded.Of != 3 || want.Unloaded.Count != 2 {
		t.Fatalf("the workspaces' own sums: %+v", want)
	}
	var red, blue *hubwire.RuleChecks
	for i, c := range st.Evidence.Checks {
		switch c.Team {
		case "red":
			red = &st.Evidence.Checks[i]
		case "blue":
			blue = &st.Evidence.Checks[i]
		}
	}
	if red == nil || blue == nil || len(st.Evidence.Checks) != 2 {
		t.Fatalf("hub checks: %+v, want p-1 of red and of blue", st.Evidence.Checks)
	}
	if red.ID != "p-1" || red.Path != "api/A.md" || !reflect.DeepEqual(red.Workspaces, []string{"ws-a", "ws-c"}) || red.Sessions != want.Sessions ||
		red.Loaded.Of != want.Loaded.Of || red.Loaded.Count != want.Loaded.Count || red.Unloaded.Of != want.Unloaded.Of || red.Unloaded.Count != want.Unloaded.Count ||
		red.Loaded.Note == "" || red.Loaded.Rate != nil {
		t.Errorf("red's p-1: %+v, want the workspaces' sums %+v, too few to tell", *red, want)
	}
	if len(red.Constraints) != len(constraints) {
		t.Errorf("red's constraints %+v, want %+v", red.Constraints, constraints)
	}
	for _, c := range red.Constraints {
		if c != constraints[c.ID] {
			t.Errorf("red's %s: %+v, want %+v", c.ID, c, constraints[c.ID])
		}
	}
	if len(red.Versions) != len(versions) {
		t.Errorf("red's versions %+v, want %v", red.Versions, versions)
	}
	for _, v := range red.Versions {
		if w := versions[v.Hash]; v.Sessions != w[0] || v.Findings.Count != w[1] {
			t.Errorf("red's version %s: %d sessions, %d with a finding; want %v", v.Hash, v.Sessions, v.Findings.Count, w)
		}
		for _, c := range v.Constraints {
			b, n := broke[v.Hash+" "+c.ID], of[v.Hash]
			if got, w := [4]int{c.Loaded.Count, c.Loaded.Of, c.Unloaded.Count, c.Unloaded.Of}, [4]int{b[0], n[0], b[1], n[1]}; got != w {
				t.Errorf("red's version %s, %s: broken in %v (loaded k of n, unloaded k of n), want %v", v.Hash, c.ID, got, w)
			}
		}
	}
	if blue.Sessions != 1 || blue.Loaded.Count != 1 || !reflect.DeepEqual(blue.Workspaces, []string{"ws-b"}) {
		t.Errorf("blue's p-1: %+v, want its one session", *blue)
	}

	h := &Hub{proj: p}
	pg, err := h.StatsChecks(q, "", 1)
	if err != nil || len(pg.Items) != 1 || pg.Items[0].Team != "blue" || pg.Next == "" {
		t.Fatalf("first page of one: %+v (%v), want blue's and a cursor", pg, err)
	}
	if pg, err = h.StatsChecks(q, pg.Next, 1); err != nil || len(pg.Items) != 1 || pg.Items[0].Team != "red" {
		t.Fatalf("second page: %+v (%v), want red's", pg, err)
	}
	q.Rule = "p-2"
	if st, err = p.stats(q); err != nil || len(st.Evidence.Checks) != 0 {
		t.Errorf("checks of rule p-2: %+v (%v), want none", st.Evidence.Checks, err)
	}
}

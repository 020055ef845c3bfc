package hub

import (
	"testing"
	"time"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/evidence"
	"github.com/clumsies/clumsies/hub/hubwire"
)

// TestProjector_EvidenceGate: the hub folds the gates' events of each
// node into its sessions' evidence as the workspace does, sums them over
// the sessions, the rules of a workspace and the members, and judges a
// claim of a rule with paths where the node's own ledger shows its host
// records file edits (a host that recorded one in another workspace does
// not count).
func TestProjector_EvidenceGate(t *testing.T) {
	p := testProjector(t)
	day := "2026-11-16"
	body := "---\npaths: [\"api/**\"]\n---\n# A\n\nWhat A asks.\n\n## C\n\n- one\n"
	feed := sessionFeeder(t, p, day)
	ref := events.ReferData{Refs: []events.Ref{{RuleID: "p-1", ConstraintID: "C/1"}}}
	load := events.LoadData{Items: []events.LoadedItem{{ID: "p-1", Hash: "h", Changed: true}}}
	for _, n := range []hubwire.Node{nodeA, nodeB} {
		feed(n, "", events.TypeCatalogPublish, events.PublishData{ID: "p-1", Kind: "rule", Path: "api/A.md", Body: body})
	}
	feed(nodeA, "s1", events.TypeSessionStart, events.SessionStartData{Host: "claude-code"})
	feed(nodeA, "s1", events.TypeToolGated, events.ToolGatedData{Host: "claude-code", Decision: events.GateDeny, Paths: []string{"api/x.go"}, Missing: []string{"p-1"}})
	feed(nodeA, "s1", events.TypeToolGated, events.ToolGatedData{Host: "claude-code", Decision: events.GateAllow, Unchecked: "no answer"})
	feed(nodeA, "s1", events.TypeFileEdit, events.FileEditData{Host: "claude-code", Paths: []string{"api/x.go"}, Rules: []string{"p-1"}, Unloaded: []string{"p-1"}})
	feed(nodeA, "s1", events.TypeStopBlocked, events.StopBlockedData{Host: "claude-code", Files: []string{"api/x.go"}, Missing: []string{"p-1"}})
	feed(nodeA, "s1", events.TypeCheck, events.CheckData{Host: "claude-code", Via: events.ViaStop, Rules: []events.CheckedRule{{ID: "p-1", Hash: "h"}},
		Files: []string{"api/x.go"}, Results: []events.CheckResult{{Rule: "p-1", Constraint: "C/1", Kind: "forbid", File: "api/x.go", Line: 3, Match: "sha256:m"}},
		Unloaded: []string{"p-1"}, Rejected: true})
	feed(nodeA, "s2", events.TypeSessionStart, events.SessionStartData{Host: "claude-code"})
	feed(nodeA, "s2", events.TypeLoad, load)
	feed(nodeA, "s2", events.TypeRefer, ref)
	feed(nodeB, "s3", events.TypeSessionStart, events.SessionStartData{Host: "claude-code"})
	feed(nodeB, "s3", events.TypeLoad, load)
	feed(nodeB, "s3", events.TypeRefer, ref)
	feed(nodeB, "s4", events.TypeFileEdit, events.FileEditData{Host: "codex", Paths: []string{".clumsies/config.toml"}, Protected: []string{".clumsies/config.toml"}})

	now, _ := time.Parse(time.DateOnly, "2026-11-20")
	st, err := p.stats(Query{Days: 30, Now: now, Period: "daily"})
	if err != nil {
		t.Fatal(err)
	}
	sessions := map[string]hubwire.SessionEvidence{}
	for _, s := range st.Evidence.Sessions {
		sessions[s.ID] = s
	}
	s1 := sessions["s1"]
	// What the rules' checks found reaches the hub as the workspace folds it.
	if len(s1.Checks) != 1 || s1.Checks[0].ID != "p-1" || s1.Checks[0].Loaded || len(s1.Checks[0].Findings) != 1 ||
		s1.Checks[0].Findings[0] != (evidence.ConstraintFindings{Constraint: "C/1", Found: 1, Rejected: 1}) {
		t.Errorf("s1's checks: %+v, want one rejected finding of C/1 of p-1, not loaded", s1.Checks)
	}
	if want := (evidence.Gate{RuleGate: evidence.RuleGate{Denials: 1, Ungated: 1, StopGateBlocks: 1}, Unchecked: 1}); s1.Gate != want || s1.Host != "claude-code" {
		t.Errorf("s1: got %+v on %q, want %+v on claude-code", s1.Gate, s1.Host, want)
	}
	if s2 := sessions["s2"]; s2.Unsupported != 1 || s2.NoHostEvidence {
		t.Errorf("s2 (no edit, on a host that records them in ws-a): got %d unsupported, no host evidence %t; want 1, false", s2.Unsupported, s2.NoHostEvidence)
	}
	if s3 := sessions["s3"]; s3.Unsupported != 0 || !s3.NoHostEvidence {
		t.Errorf("s3 (no edit, on a host that recorded none in ws-b): got %d unsupported, no host evidence %t; want 0, true", s3.Unsupported, s3.NoHostEvidence)
	}
	if s4 := sessions["s4"]; s4.Gate.ProtectedChanges != 1 {
		t.Errorf("s4: got %d protected changes, want 1", s4.Gate.ProtectedChanges)
	}
	if want := (evidence.Gate{RuleGate: evidence.RuleGate{Denials: 1, Ungated: 1, StopGateBlocks: 1}, Unchecked: 1, ProtectedChanges: 1}); st.Evidence.Gate != want {
		t.Errorf("evidence: got %+v, want %+v", st.Evidence.Gate, want)
	}
	for _, r := range st.Evidence.Rules {
		want := evidence.RuleGate{}
		if r.WorkspaceID == nodeA.Workspace {
			want = evidence.RuleGate{Denials: 1, Ungated: 1, StopGateBlocks: 1}
		}
		if r.RuleGate != want {
			t.Errorf("rule %s of %s: got %+v, want %+v", r.ID, r.WorkspaceID, r.RuleGate, want)
		}
	}
	for _, m := range st.Members {
		if m.Member == nodeA.Member && m.Evidence.Gate.Denials != 1 {
			t.Errorf("member %s: got %+v, want 1 denial", m.Member, m.Evidence.Gate)
		}
	}
}

// TestProjector_EvidenceLoadDelivered: the hub counts a load as the
// workspace does, only when memload delivered the published body: a
// knownHashes answer that sent nothing and a draft's body load nothing.
func TestProjector_EvidenceLoadDelivered(t *testing.T) {
	p := testProjector(t)
	day := "2026-11-16"
	var seq uint64
	feed := func(session string, typ events.Type, payload any) {
		t.Helper()
		ev := event(t, nodeA.Workspace, typ, day, payload)
		ev.SessionID = session
		seq++
		applyAll(t, p, sourced(nodeA, ev, seq))
	}
	feed("", events.TypeCatalogPublish, events.PublishData{ID: "p-1", Kind: "rule", Path: "A.md", Body: "# A\n\n## C\n\n- one\n"})
	for session, item := range map[string]events.LoadedItem{
		"sent":    {ID: "p-1", Hash: "h", Changed: true},
		"nothing": {ID: "p-1", Hash: "h"},
		"draft":   {ID: "p-1", Hash: "d", Changed: true, Draft: true},
	} {
		feed(session, events.TypeLoad, events.LoadData{Items: []events.LoadedItem{item}})
	}
	now, _ := time.Parse(time.DateOnly, "2026-11-20")
	st, err := p.stats(Query{Days: 30, Now: now, Period: "daily"})
	if err != nil {
		t.Fatal(err)
	}
	loaded := map[string]bool{}
	for _, s := range st.Evidence.Sessions {
		for _, r := range s.Rules {
			if r.ID == "p-1" && r.Loaded {
				loaded[s.ID] = true
			}
		}
	}
	if !loaded["sent"] || loaded["nothing"] || loaded["draft"] {
		t.Fatalf("loaded: %v, want only the session that received the body", loaded)
	}
}

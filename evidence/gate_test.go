package evidence_test

import (
	"reflect"
	"testing"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/evidence"
)

// The gates' events fold into a session's figures and its rules' figures;
// events written before these fields existed fold into none.
func TestRow_Gate(t *testing.T) {
	for _, tc := range []struct {
		name      string
		fold      func(r *evidence.Row)
		want      evidence.Gate
		wantRules []evidence.Rule
	}{
		{
			name: "Deny",
			fold: func(r *evidence.Row) {
				r.ToolGated(&events.ToolGatedData{Host: "claude-code", Decision: events.GateDeny, Paths: []string{"a.go"}, Missing: []string{"r2", "r1"}}, nil)
			},
			want:      evidence.Gate{RuleGate: evidence.RuleGate{Denials: 1}},
			wantRules: []evidence.Rule{{ID: "r1", RuleGate: evidence.RuleGate{Denials: 1}}, {ID: "r2", RuleGate: evidence.RuleGate{Denials: 1}}},
		},
		{
			name: "Warn",
			fold: func(r *evidence.Row) {
				r.ToolGated(&events.ToolGatedData{Decision: events.GateWarn, Missing: []string{"r1"}}, nil)
				r.ToolGated(&events.ToolGatedData{Decision: events.GateWarn, Missing: []string{"r1"}}, nil)
			},
			want:      evidence.Gate{RuleGate: evidence.RuleGate{Warnings: 2}},
			wantRules: []evidence.Rule{{ID: "r1", RuleGate: evidence.RuleGate{Warnings: 2}}},
		},
		{
			name: "AllowUnchecked",
			fold: func(r *evidence.Row) {
				r.ToolGated(&events.ToolGatedData{Decision: events.GateAllow, Unchecked: "no owner answered"}, nil)
				r.ToolGated(&events.ToolGatedData{Decision: events.GateAllow}, nil)
			},
			want:      evidence.Gate{Unchecked: 1},
			wantRules: []evidence.Rule{},
		},
		{
			name: "ProtectedGatedAndChanged",
			fold: func(r *evidence.Row) {
				r.ToolGated(&events.ToolGatedData{Decision: events.GateDeny, Paths: []string{".clumsies/config.toml"}, Protected: []string{".clumsies/config.toml"}}, nil)
				r.FileEdit(&events.FileEditData{Paths: []string{".clumsies/config.toml"}, Protected: []string{".clumsies/config.toml"}}, nil)
			},
			want:      evidence.Gate{RuleGate: evidence.RuleGate{Denials: 1}, ProtectedGated: 1, ProtectedChanges: 1},
			wantRules: []evidence.Rule{},
		},
		{
			name: "UngatedChange",
			fold: func(r *evidence.Row) {
				r.FileEdit(&events.FileEditData{Paths: []string{"a.go"}, Rules: []string{"r1", "r2"}, Unloaded: []string{"r1"}}, nil)
				r.FileEdit(&events.FileEditData{Paths: []string{"b.go"}, Rules: []string{"r1"}}, nil)
			},
			want: evidence.Gate{RuleGate: evidence.RuleGate{Ungated: 1}},
			wantRules: []evidence.Rule{
				{ID: "r1", InScope: 2, UnloadedEdits: 2, RuleGate: evidence.RuleGate{Ungated: 1}},
				{ID: "r2", InScope: 1, UnloadedEdits: 1},
			},
		},
		{
			name: "StopGate",
			fold: func(r *evidence.Row) {
				r.StopBlocked(&events.StopBlockedData{Blocks: 1, Limit: 3, Files: []string{"a.go"}, Missing: []string{"r1"}}, nil)
				r.StopBlocked(&events.StopBlockedData{Blocks: 2, Limit: 3}, nil)
			},
			want:      evidence.Gate{RuleGate: evidence.RuleGate{StopGateBlocks: 1}},
			wantRules: []evidence.Rule{{ID: "r1", RuleGate: evidence.RuleGate{StopGateBlocks: 1}}},
		},
		{
			name: "OlderEvents",
			fold: func(r *evidence.Row) {
				r.ToolGated(&events.ToolGatedData{Decision: events.GateDeny, Missing: []string{"r1"}}, nil)
				r.FileEdit(&events.FileEditData{Paths: []string{"a.go"}, Rules: []string{"r1"}}, nil)
				r.StopBlocked(&events.StopBlockedData{Blocks: 1, Limit: 3}, nil)
			},
			want:      evidence.Gate{RuleGate: evidence.RuleGate{Denials: 1}},
			wantRules: []evidence.Rule{{ID: "r1", InScope: 1, UnloadedEdits: 1, RuleGate: evidence.RuleGate{Denials: 1}}},
		},
		{
			name: "RenamedRules",
			fold: func(r *evidence.Row) {
				of := func(id string) string {
					if id == "old" {
						return "new"
					}
					return id
				}
				r.ToolGated(&events.ToolGatedData{Decision: events.GateDeny, Missing: []string{"old"}}, of)
				r.FileEdit(&events.FileEditData{Paths: []string{"a.go"}, Rules: []string{"old"}, Unloaded: []string{"old"}}, of)
			},
			want:      evidence.Gate{RuleGate: evidence.RuleGate{Denials: 1, Ungated: 1}},
			wantRules: []evidence.Rule{{ID: "new", InScope: 1, UnloadedEdits: 1, RuleGate: evidence.RuleGate{Denials: 1, Ungated: 1}}},
		},
		{
			name: "Reid",
			fold: func(r *evidence.Row) {
				r.ToolGated(&events.ToolGatedData{Decision: events.GateWarn, Missing: []string{"old"}}, nil)
				r.StopBlocked(&events.StopBlockedData{Files: []string{"a.go"}, Missing: []string{"new"}}, nil)
				r.Reid("old", "new")
			},
			want:      evidence.Gate{RuleGate: evidence.RuleGate{Warnings: 1, StopGateBlocks: 1}},
			wantRules: []evidence.Rule{{ID: "new", RuleGate: evidence.RuleGate{Warnings: 1, StopGateBlocks: 1}}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var r evidence.Row
			tc.fold(&r)
			s := r.Session("s", facts{}, nil)
			if s.Gate != tc.want {
				t.Errorf("gate: got %+v, want %+v", s.Gate, tc.want)
			}
			if !reflect.DeepEqual(s.Rules, tc.wantRules) {
				t.Errorf("rules: got %+v, want %+v", s.Rules, tc.wantRules)
			}
			if !s.Any() {
				t.Error("Any: got false, want true")
			}
		})
	}
}

// A claim of a rule with paths is judged against the files a session
// touched only where the host records file edits: the session recorded
// one, or another session of its host did in the workspace. Elsewhere the
// session has no evidence on this host. A change a shell command made,
// found by the working-tree check (unnamed), is evidence as any other.
func TestRow_SessionJudgedWhereEvidenceCanExist(t *testing.T) {
	claim := func(host string) *evidence.Row {
		var r evidence.Row
		r.SawHost(host)
		load(&r, "scoped")
		r.Ref("scoped")
		return &r
	}
	var editor evidence.Row
	editor.FileEdit(&events.FileEditData{Host: "claude-code", Tool: "Edit", Paths: []string{"a.go"}}, nil)
	hosts := evidence.Hosts{}
	hosts.Add(&editor)
	hosts.Add(claim("codex"))

	var shell evidence.Row
	load(&shell, "scoped")
	shell.FileEdit(&events.FileEditData{Host: "codex", Tool: "Bash", Paths: []string{"api/h.go"}, Unnamed: []string{"api/h.go"}, Rules: []string{"scoped"}}, nil)
	shell.Ref("scoped")

	for _, tc := range []struct {
		name        string
		row         *evidence.Row
		unsupported uint64
		why         string
		noEvidence  bool
	}{
		{name: "HostRecordsEdits", row: claim("claude-code"), unsupported: 1, why: evidence.WhyNoScope},
		{name: "HostNeverRecordedOne", row: claim("codex"), noEvidence: true},
		{name: "NoHost", row: claim(""), noEvidence: true},
		{name: "ShellEditInScope", row: &shell},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := tc.row.Session("s", facts{"scoped": true}, hosts)
			if s.Unsupported != tc.unsupported || s.Rules[0].Why != tc.why || s.NoHostEvidence != tc.noEvidence {
				t.Errorf("got %d unsupported (%q), no host evidence %t; want %d (%q), %t",
					s.Unsupported, s.Rules[0].Why, s.NoHostEvidence, tc.unsupported, tc.why, tc.noEvidence)
			}
		})
	}
}

// Totals and Figures sum the gates' figures over sessions.
func TestTotals_Gate(t *testing.T) {
	var a, b evidence.Row
	a.ToolGated(&events.ToolGatedData{Decision: events.GateDeny, Missing: []string{"r1"}}, nil)
	a.FileEdit(&events.FileEditData{Paths: []string{"x.go"}, Rules: []string{"r1"}, Unloaded: []string{"r1"}, Protected: []string{"x.go"}}, nil)
	b.ToolGated(&events.ToolGatedData{Decision: events.GateDeny, Missing: []string{"r1", "r2"}}, nil)
	b.StopBlocked(&events.StopBlockedData{Files: []string{"x.go"}, Missing: []string{"r2"}}, nil)
	ss := []evidence.Session{a.Session("a", facts{}, nil), b.Session("b", facts{}, nil)}
	got := evidence.Totals(ss)
	want := []evidence.RuleGate{{Denials: 2, Ungated: 1}, {Denials: 1, StopGateBlocks: 1}}
	if len(got) != 2 || got[0].RuleGate != want[0] || got[1].RuleGate != want[1] {
		t.Errorf("totals: got %+v, want r1 %+v, r2 %+v", got, want[0], want[1])
	}
	var f evidence.Figures
	for _, s := range ss {
		f.Add(s)
	}
	if w := (evidence.Gate{RuleGate: evidence.RuleGate{Denials: 2, Ungated: 1, StopGateBlocks: 1}, ProtectedChanges: 1}); f.Gate != w {
		t.Errorf("figures: got %+v, want %+v", f.Gate, w)
	}
}

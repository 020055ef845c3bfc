package stats

import (
	"github.com/clumsies/clumsies/dayrange"
	"github.com/clumsies/clumsies/evidence"
	"github.com/clumsies/clumsies/node"
	"github.com/clumsies/clumsies/projections"
	"github.com/clumsies/clumsies/views/dash"
)

// Report is the stable shape of `clumsies stats --json`. Fields may be
// added; none may change.
type Report struct {
	WorkspaceID string `json:"workspaceId"`
	// WorkspaceName is the workspace's name (config.toml's name, else its
	// folder's); set by the caller, which knows the workspace.
	WorkspaceName string `json:"workspaceName,omitempty"`
	// Range is the range of days counted (--since, --until, --days):
	// absent for all time. See views/dash/ranged.go for what it holds.
	Range  *dayrange.Range `json:"range,omitempty"`
	Events uint64          `json:"events"`
	// Sessions counts the sessions set up (a successful memsetup bound
	// them); SessionsHooksOnly those a host hook saw that never set up
	// (events.SessionKind).
	Sessions          int       `json:"sessions"`
	SessionsHooksOnly int       `json:"sessionsHooksOnly"`
	Rules             []Rule    `json:"rules"`
	Tools             []Tool    `json:"tools"`
	Drafts            int       `json:"drafts"`
	Objects           int       `json:"objects"`
	SessionList       []Session `json:"sessionList"`
	// Compliance is what the adapters' hooks show.
	Compliance Compliance `json:"compliance"`
	// Evidence is what the post-tool hooks show.
	Evidence Evidence `json:"evidence"`
	// Checks are what the rules' checks found, per rule (checks.go), over
	// the sessions in the range.
	Checks []RuleChecks `json:"checks"`
}

// Rule is a rule or workflow with its refs, per constraint too.
type Rule struct {
	ID          string       `json:"id"`
	Path        string       `json:"path"`
	Kind        string       `json:"kind"`
	Source      string       `json:"source,omitempty"` // "team" for a rule of the team's catalog
	Refs        uint64       `json:"refs"`
	Constraints []Constraint `json:"constraints"`
}

// Constraint is a constraint of a rule with its refs.
type Constraint struct {
	ID   string `json:"id"`
	Refs uint64 `json:"refs"`
}

// Tool is the metrics of one MCP tool: calls, errors, mean and longest
// duration in microseconds.
type Tool struct {
	Tool   string `json:"tool"`
	Calls  uint64 `json:"calls"`
	Errors uint64 `json:"errors"`
	AvgUs  uint64 `json:"avgUs"`
	MaxUs  uint64 `json:"maxUs"`
}

// Session is one session with its calls, refs and reports.
type Session struct {
	ID      string `json:"id"`
	First   string `json:"first"`
	Last    string `json:"last"`
	Calls   uint64 `json:"calls"` // tool calls
	Hooks   uint64 `json:"hooks"` // events of the host's hooks
	Kind    string `json:"kind"`  // setUp, hooksOnly or other
	Refs    uint64 `json:"refs"`
	Reports uint64 `json:"reports"`
	Rejects uint64 `json:"rejects"`
	// Bound says how the session is bound to whoever set it up (hook,
	// memsetup), absent when it is not; Client names the MCP client that
	// set it up.
	Bound  string `json:"bound,omitempty"`
	Client string `json:"client,omitempty"`
}

// OfStore is the Report of the read models in s, of workspace wsID, over
// all time, with the gate off.
func OfStore(wsID string, s *projections.Store) Report {
	return Of(wsID, node.StatsOf(s), dayrange.Range{}, "off")
}

// Of is the Report of s, of workspace wsID, in rg: with a range, the
// events, the rules' refs, the sessions (those first seen in it) with
// their compliance and evidence count in it; the constraints' refs and
// the tools are over all time (the read models do not keep them per day).
// enforce is the workspace's [enforce] mode (off, warn or block; "" is
// off): with the gate on, a session with an ungated change is not
// compliant.
func Of(wsID string, s node.Stats, rg dayrange.Range, enforce string) Report {
	sum := s.Summary
	sessions := dash.SessionsIn(s.Sessions, rg)
	st := Report{WorkspaceID: wsID, Events: sum.Events, Sessions: sum.Sessions, SessionsHooksOnly: sum.SessionsHooksOnly, Drafts: sum.Drafts, Objects: sum.Objects,
		Rules: []Rule{}, Tools: []Tool{}, SessionList: []Session{}, Evidence: evidenceOf(dash.EvidenceOf(s.Evidence, sessions))}
	compliance := s.Compliance
	if !rg.All() {
		st.Range = &rg
		st.Events = dash.SumDays(s.Days, rg).Events
		st.Sessions, st.SessionsHooksOnly = dash.Kinds(sessions)
		compliance = dash.OfSessions(compliance, sessions, func(c projections.Compliance) string { return c.ID })
	}
	st.Compliance = complianceOf(compliance, st.Evidence, enforce)
	st.Checks = evidence.SumChecks(st.Evidence.Sessions)
	for _, u := range s.Usage {
		refs := u.Refs
		if !rg.All() {
			refs = dash.SumDays(s.RuleDays[u.ID], rg).Refs
		}
		r := Rule{ID: u.ID, Path: u.Path, Kind: string(u.Kind), Source: u.Source, Refs: refs, Constraints: []Constraint{}}
		for _, c := range u.Constraints {
			r.Constraints = append(r.Constraints, Constraint{ID: c.ID, Refs: c.Refs})
		}
		st.Rules = append(st.Rules, r)
	}
	for _, t := range s.Tools {
		st.Tools = append(st.Tools, Tool{Tool: t.Tool, Calls: t.Calls, Errors: t.Errors, AvgUs: t.AvgUs(), MaxUs: t.MaxUs})
	}
	for _, se := range sessions {
		st.SessionList = append(st.SessionList, Session{ID: se.ID, First: se.First, Last: se.Last, Calls: se.Calls, Hooks: se.Hooks, Kind: se.Kind().String(), Refs: se.Refs, Reports: se.Reports, Rejects: se.Rejects,
			Bound: se.Bound, Client: se.Client})
	}
	return st
}

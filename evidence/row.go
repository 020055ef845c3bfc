package evidence

import (
	"maps"
	"slices"
)

// MaxPaths bounds the touched paths a session's Row keeps.
const MaxPaths = 1000

// Row is a session's evidence as a read model keeps it (JSON).
type Row struct {
	Edits uint64              `json:"edits"`
	Paths []string            `json:"paths,omitempty"`
	Rules map[string]*RuleRow `json:"rules,omitempty"`
	// Host is the first host the session's hooks named (SawHost); Model
	// the first model, Client the MCP client of its first memsetup
	// (who.go).
	Host   string `json:"host,omitempty"`
	Model  string `json:"model,omitempty"`
	Client string `json:"client,omitempty"`
	// Gate is what the gates recorded of the session (gate.go).
	Gate gateRow `json:"gate,omitzero"`
	// Checks are what the rules' checks found, by rule id (checks.go).
	Checks map[string]*CheckRow `json:"checks,omitempty"`
	// Loads are the versions the session received with memload
	// (loads.go): whether it loaded a rule is theirs to say.
	Loads Loads `json:"loads,omitempty"`
}

// RuleRow is one rule in a session's Row.
type RuleRow struct {
	InScope       uint64 `json:"inScope,omitempty"`
	UnloadedEdits uint64 `json:"unloadedEdits,omitempty"`
	Refs          uint64 `json:"refs,omitempty"`
	// UnloadedRefs counts the refs made before the rule was loaded.
	UnloadedRefs uint64 `json:"unloadedRefs,omitempty"`
	// The gates' figures of the rule (RuleGate).
	Denials        uint64 `json:"denials,omitempty"`
	Warnings       uint64 `json:"warnings,omitempty"`
	Ungated        uint64 `json:"ungated,omitempty"`
	StopGateBlocks uint64 `json:"stopGateBlocks,omitempty"`
}

func (r *Row) rule(id string) *RuleRow {
	if r.Rules == nil {
		r.Rules = map[string]*RuleRow{}
	}
	re := r.Rules[id]
	if re == nil {
		re = new(RuleRow)
		r.Rules[id] = re
	}
	return re
}

// Edit folds a successful attest.file_edit: the paths it touched and the
// rules in scope for them; for a rule the session has received no
// version of yet (Loads), an edit before its load (UnloadedEdits).
func (r *Row) Edit(paths, rules []string) {
	r.Edits++
	for _, path := range paths {
		if i, found := slices.BinarySearch(r.Paths, path); !found && len(r.Paths) < MaxPaths {
			r.Paths = slices.Insert(r.Paths, i, path)
		}
	}
	for _, id := range rules {
		re := r.rule(id)
		re.InScope++
		if !r.Loads.Received(id) {
			re.UnloadedEdits++
		}
	}
}

// Ref folds one ref (memref) of rule id.
func (r *Row) Ref(id string) {
	re := r.rule(id)
	re.Refs++
	if !r.Loads.Received(id) {
		re.UnloadedRefs++
	}
}

// Names reports whether the row names rule id: in scope of an edit,
// referenced, named by a gate, or loaded.
func (r *Row) Names(id string) bool {
	_, ok := r.Rules[id]
	return ok || r.Loads.Received(id)
}

// named returns the ids the row names (Names), sorted.
func (r *Row) named() []string {
	ids := slices.AppendSeq(make([]string, 0, len(r.Rules)+len(r.Loads)), maps.Keys(r.Rules))
	for id := range r.Loads {
		if _, ok := r.Rules[id]; !ok {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids
}

// Facts is what evidence needs to know of the catalog's rules.
type Facts interface {
	// IsRule reports whether id is a published rule or workflow.
	IsRule(id string) bool
	// Scoped reports whether the published rule id declares the paths
	// it applies to.
	Scoped(id string) bool
}

// Session returns the API form of session id's row. c says what the
// catalog knows of a rule: a load of an id it does not know as a rule or
// workflow (META_PROMPT, context) is left out. hosts are the hosts that
// recorded file edits in the session's workspace: a session that recorded
// none, from a host that never did, has no evidence to judge a claim of a
// rule with paths against (NoHostEvidence).
func (r *Row) Session(id string, c Facts, hosts Hosts) Session {
	out := Session{ID: id, Host: r.Host, Model: r.Model, Client: r.Client, Edits: r.Edits, Paths: slices.Clone(r.Paths), Rules: []Rule{}, Gate: r.Gate.gate(), Checks: r.checks()}
	if out.Paths == nil {
		out.Paths = []string{}
	}
	judged := r.Edits > 0 || r.Host != "" && hosts[r.Host]
	out.NoHostEvidence = !judged
	for _, rid := range r.named() {
		re := r.Rules[rid]
		if re == nil {
			re = new(RuleRow) // loaded, and nothing else
		}
		g := re.gate()
		if re.InScope == 0 && re.Refs == 0 && g == (RuleGate{}) && !c.IsRule(rid) {
			continue
		}
		e := Rule{ID: rid, InScope: re.InScope, UnloadedEdits: re.UnloadedEdits, Loaded: r.Loads.Received(rid), Refs: re.Refs, RuleGate: g}
		switch {
		case judged && re.InScope == 0 && re.Refs > 0 && c.Scoped(rid):
			e.Unsupported, e.Why = re.Refs, WhyNoScope
		case re.UnloadedRefs > 0:
			e.Unsupported, e.Why = re.UnloadedRefs, WhyNotLoaded
		}
		out.Unsupported += e.Unsupported
		out.Rules = append(out.Rules, e)
	}
	return out
}

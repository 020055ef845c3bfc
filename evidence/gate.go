package evidence

import (
	"slices"

	"github.com/clumsies/clumsies/events"
)

// RuleGate is what the gates recorded of one rule in a session, or summed
// over sessions: each figure counts events that named the rule.
type RuleGate struct {
	// Denials and Warnings count the attest.tool_gated events whose
	// decision was deny or warn and that asked for the rule (missing).
	Denials  uint64 `json:"denials"`
	Warnings uint64 `json:"warnings"`
	// Ungated counts the in-scope changes made before the rule was
	// loaded: attest.file_edit events that name it in unloaded.
	Ungated uint64 `json:"ungated"`
	// StopGateBlocks counts the attest.stop_blocked events that held the
	// agent until it loads the rule (missing).
	StopGateBlocks uint64 `json:"stopGateBlocks"`
}

// Gate is what the gates recorded of a session, or summed over sessions:
// RuleGate's figures counting events (an event naming two rules counts
// once), and those that name no rule.
type Gate struct {
	RuleGate
	// Unchecked counts the tools the gate let run because it could not
	// check (attest.tool_gated, decision allow, unchecked set).
	Unchecked uint64 `json:"unchecked"`
	// ProtectedGated counts the attest.tool_gated events about a tool
	// that would change the enforcement's own files (protected);
	// ProtectedChanges the attest.file_edit events that changed them.
	ProtectedGated   uint64 `json:"protectedGated"`
	ProtectedChanges uint64 `json:"protectedChanges"`
}

// Add sums g into f.
func (f *Gate) Add(g Gate) {
	f.RuleGate.Add(g.RuleGate)
	f.Unchecked += g.Unchecked
	f.ProtectedGated += g.ProtectedGated
	f.ProtectedChanges += g.ProtectedChanges
}

// Add sums g into f.
func (f *RuleGate) Add(g RuleGate) {
	f.Denials += g.Denials
	f.Warnings += g.Warnings
	f.Ungated += g.Ungated
	f.StopGateBlocks += g.StopGateBlocks
}

// gateRow is a session's Gate as a Row keeps it (JSON).
type gateRow struct {
	Denials          uint64 `json:"denials,omitempty"`
	Warnings         uint64 `json:"warnings,omitempty"`
	Unchecked        uint64 `json:"unchecked,omitempty"`
	Ungated          uint64 `json:"ungated,omitempty"`
	ProtectedGated   uint64 `json:"protectedGated,omitempty"`
	ProtectedChanges uint64 `json:"protectedChanges,omitempty"`
	StopGateBlocks   uint64 `json:"stopGateBlocks,omitempty"`
}

func (g gateRow) gate() Gate {
	return Gate{
		RuleGate:  RuleGate{Denials: g.Denials, Warnings: g.Warnings, Ungated: g.Ungated, StopGateBlocks: g.StopGateBlocks},
		Unchecked: g.Unchecked, ProtectedGated: g.ProtectedGated, ProtectedChanges: g.ProtectedChanges,
	}
}

func (re *RuleRow) gate() RuleGate {
	return RuleGate{Denials: re.Denials, Warnings: re.Warnings, Ungated: re.Ungated, StopGateBlocks: re.StopGateBlocks}
}

// same maps an id to itself: the ids of a workspace's own events.
func same(id string) string { return id }

// ids returns of applied to ids, sorted, each once.
func ids(list []string, of func(string) string) []string {
	if of == nil {
		of = same
	}
	out := make([]string, len(list))
	for i, id := range list {
		out[i] = of(id)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// SawHost folds the host a hook of the session named: the first one is
// the session's.
func (r *Row) SawHost(host string) {
	if r.Host == "" {
		r.Host = host
	}
}

// FileEdit folds a successful attest.file_edit: the files and the rules
// in scope (Edit), the host, the rules the session had not loaded then
// (an ungated change) and whether it changed the enforcement's own files.
// of gives the id a rule has now (nil: the id itself).
func (r *Row) FileEdit(d *events.FileEditData, of func(id string) string) {
	r.SawHost(d.Host)
	r.Edit(d.Paths, ids(d.Rules, of))
	if len(d.Unloaded) > 0 {
		r.Gate.Ungated++
		for _, id := range ids(d.Unloaded, of) {
			r.rule(id).Ungated++
		}
	}
	if len(d.Protected) > 0 {
		r.Gate.ProtectedChanges++
	}
}

// ToolGated folds a successful attest.tool_gated: a denial or a warning,
// for the session and for each rule it asked for, a tool let run
// unchecked, and a tool about to change the enforcement's own files.
func (r *Row) ToolGated(d *events.ToolGatedData, of func(id string) string) {
	r.SawHost(d.Host)
	switch d.Decision {
	case events.GateDeny:
		r.Gate.Denials++
		for _, id := range ids(d.Missing, of) {
			r.rule(id).Denials++
		}
	case events.GateWarn:
		r.Gate.Warnings++
		for _, id := range ids(d.Missing, of) {
			r.rule(id).Warnings++
		}
	case events.GateAllow:
		if d.Unchecked != "" {
			r.Gate.Unchecked++
		}
	}
	if len(d.Protected) > 0 {
		r.Gate.ProtectedGated++
	}
}

// StopBlocked folds a successful attest.stop_blocked: when it names files
// (the stop gate held the agent until it loads the rules in scope of
// them), a stop-gate block for the session and each rule it asked for.
// A stop blocked for an unanswered prompt alone is compliance's, not the
// gate's.
func (r *Row) StopBlocked(d *events.StopBlockedData, of func(id string) string) {
	r.SawHost(d.Host)
	if len(d.Files) == 0 {
		return
	}
	r.Gate.StopGateBlocks++
	for _, id := range ids(d.Missing, of) {
		r.rule(id).StopGateBlocks++
	}
}

// Hosts is the set of hosts whose hooks recorded a file edit in a
// workspace: where a session that recorded none could have, so that a
// claim of a rule with paths is judged against its (no) touched files.
type Hosts map[string]bool

// Add counts the row of a session: its host records file edits when the
// session has one.
func (h Hosts) Add(r *Row) {
	if r.Edits > 0 && r.Host != "" {
		h[r.Host] = true
	}
}

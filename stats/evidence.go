package stats

import (
	"cmp"
	"slices"

	"github.com/clumsies/clumsies/projections"
)

// Evidence is the "evidence" part of `clumsies stats --json`: what
// the post-tool hooks saw the agents do (files touched, attest.file_edit),
// held against what they loaded and claimed, per rule and per session.
type Evidence struct {
	// Edits counts the file-changing tool uses the hooks recorded.
	Edits uint64 `json:"edits"`
	// Unsupported counts memref refs claimed without evidence: of a rule
	// the session had not loaded, or of a rule with paths none of the
	// session's touched files is in scope of.
	Unsupported uint64 `json:"unsupported"`
	// GateFigures sums what the gates recorded over the sessions:
	// denials, warnings, unchecked, ungated, protectedGated,
	// protectedChanges, stopGateBlocks (docs/rules.md, "What the gate
	// saw").
	projections.GateFigures
	// Rules are per rule over every session: sessions with an edit in
	// its scope, edits before it was loaded, sessions that loaded and
	// claimed it, claims without evidence, and the gates' figures that
	// name it (denials, warnings, ungated, stopGateBlocks).
	Rules    []projections.RuleTotals      `json:"rules"`
	Sessions []projections.SessionEvidence `json:"sessions"`
}

func evidenceOf(ss []projections.SessionEvidence) Evidence {
	out := Evidence{Rules: projections.Totals(ss), Sessions: ss}
	if out.Sessions == nil {
		out.Sessions = []projections.SessionEvidence{}
	}
	for _, s := range ss {
		out.Edits += s.Edits
		out.Unsupported += s.Unsupported
		out.GateFigures.Add(s.Gate)
	}
	return out
}

// session returns the evidence of session id in e, and whether
// there is any.
func (e Evidence) session(id string) (projections.SessionEvidence, bool) {
	i, ok := slices.BinarySearchFunc(e.Sessions, id, func(s projections.SessionEvidence, id string) int { return cmp.Compare(s.ID, id) })
	if !ok {
		return projections.SessionEvidence{}, false
	}
	return e.Sessions[i], true
}

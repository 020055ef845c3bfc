package main

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/clumsies/clumsies/projections"
)

// evidenceJSON is the "evidence" part of `clumsies stats --json`: what
// the post-tool hooks saw the agents do (files touched, attest.file_edit),
// held against what they loaded and claimed, per rule and per session.
type evidenceJSON struct {
	// Edits counts the file-changing tool uses the hooks recorded.
	Edits uint64 `json:"edits"`
	// Unsupported counts memref refs claimed without evidence: of a rule
	// the session had not loaded, or of a rule with paths none of the
	// session's touched files is in scope of.
	Unsupported uint64 `json:"unsupported"`
	// Rules are per rule over every session: sessions with an edit in
	// its scope, edits before it was loaded, sessions that loaded and
	// claimed it, claims without evidence.
	Rules    []projections.RuleTotals      `json:"rules"`
	Sessions []projections.SessionEvidence `json:"sessions"`
}

func evidenceOf(ss []projections.SessionEvidence) evidenceJSON {
	out := evidenceJSON{Rules: projections.Totals(ss), Sessions: ss}
	if out.Sessions == nil {
		out.Sessions = []projections.SessionEvidence{}
	}
	for _, s := range ss {
		out.Edits += s.Edits
		out.Unsupported += s.Unsupported
	}
	return out
}

// session returns the evidence of session id in e, and whether
// there is any.
func (e evidenceJSON) session(id string) (projections.SessionEvidence, bool) {
	i, ok := slices.BinarySearchFunc(e.Sessions, id, func(s projections.SessionEvidence, id string) int { return cmp.Compare(s.ID, id) })
	if !ok {
		return projections.SessionEvidence{}, false
	}
	return e.Sessions[i], true
}

// printEvidence prints the rules' evidence and each session's claims
// without evidence, naming a rule by its path where rules has it.
func printEvidence(w io.Writer, e evidenceJSON, rules []ruleJSON) error {
	name := map[string]string{}
	for _, r := range rules {
		name[r.ID] = r.Path
	}
	nameOf := func(id string) string { return cmp.Or(name[id], id) }
	if len(e.Rules) == 0 && e.Edits == 0 {
		return nil
	}
	fmt.Fprintf(w, "\nEvidence: %d file edits recorded by hooks; %d claims without evidence\n\n", e.Edits, e.Unsupported)
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "RULE\tIN SCOPE\tEDITS BEFORE LOAD\tLOADED\tREFERENCED\tUNSUPPORTED")
	for _, r := range e.Rules {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\n", nameOf(r.ID), r.InScope, r.UnloadedEdits, r.Loaded, r.Referenced, r.Unsupported)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, s := range e.Sessions {
		for _, r := range s.Rules {
			if r.Unsupported > 0 {
				fmt.Fprintf(w, "session %s: %d refs of %s claimed without evidence (%s)\n", s.ID, r.Unsupported, nameOf(r.ID), r.Why)
			}
		}
		if len(s.Paths) > 0 {
			fmt.Fprintf(w, "session %s touched: %s\n", s.ID, strings.Join(s.Paths, " "))
		}
	}
	return nil
}

package main

import (
	"cmp"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/clumsies/clumsies/projections"
	"github.com/clumsies/clumsies/stats"
)

// printEvidence prints the rules' evidence, what the gates recorded, and
// each session's claims without evidence, naming a rule by its path where
// rules has it.
func printEvidence(w io.Writer, e stats.Evidence, rules []stats.Rule) error {
	name := map[string]string{}
	for _, r := range rules {
		name[r.ID] = r.Path
	}
	nameOf := func(id string) string { return cmp.Or(name[id], id) }
	if len(e.Rules) == 0 && e.Edits == 0 && e.GateFigures == (projections.GateFigures{}) {
		return nil
	}
	fmt.Fprintf(w, "\nEvidence: %d file edits recorded by hooks; %d claims without evidence\n", e.Edits, e.Unsupported)
	g := e.GateFigures
	fmt.Fprintf(w, "Gate: %d denied, %d warned, %d unchecked; %d in-scope changes before loading (ungated); "+
		"enforcement's own files: %d gated, %d changed; %d stop-gate blocks\n\n",
		g.Denials, g.Warnings, g.Unchecked, g.Ungated, g.ProtectedGated, g.ProtectedChanges, g.StopGateBlocks)
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "RULE\tIN SCOPE\tEDITS BEFORE LOAD\tLOADED\tREFERENCED\tUNSUPPORTED\tDENIED\tWARNED\tUNGATED\tSTOP-GATED")
	for _, r := range e.Rules {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\n", nameOf(r.ID), r.InScope, r.UnloadedEdits, r.Loaded, r.Referenced, r.Unsupported,
			r.Denials, r.Warnings, r.Ungated, r.StopGateBlocks)
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
		if s.NoHostEvidence && claimed(s) {
			why := "no host hook announced it, so nothing recorded its file edits"
			if s.Host != "" {
				why = s.Host + " records no file edits here"
			}
			fmt.Fprintf(w, "session %s: %s (%s): its claims are not judged against touched files\n", s.ID, projections.NoEvidenceOnHost, why)
		}
		if s.Gate != (projections.GateFigures{}) {
			fmt.Fprintf(w, "session %s gate: %s\n", s.ID, gateLine(s.Gate, nameOf, s.Rules))
		}
		if len(s.Paths) > 0 {
			fmt.Fprintf(w, "session %s touched: %s\n", s.ID, strings.Join(s.Paths, " "))
		}
	}
	return nil
}

// claimed reports whether session s referenced any rule.
func claimed(s projections.SessionEvidence) bool {
	for _, r := range s.Rules {
		if r.Refs > 0 {
			return true
		}
	}
	return false
}

// gateLine says what the gates recorded of a session: its non-zero
// figures, and for ungated changes the rules they were made before
// loading.
func gateLine(g projections.GateFigures, nameOf func(string) string, rules []projections.RuleEvidence) string {
	var parts []string
	add := func(n uint64, what string) {
		if n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, what))
		}
	}
	add(g.Denials, "denied")
	add(g.Warnings, "warned")
	add(g.Unchecked, "unchecked")
	if g.Ungated > 0 {
		var before []string
		for _, r := range rules {
			if r.Ungated > 0 {
				before = append(before, nameOf(r.ID))
			}
		}
		parts = append(parts, fmt.Sprintf("%d changed before loading %s", g.Ungated, strings.Join(before, " ")))
	}
	add(g.ProtectedGated, "gated on the enforcement's own files")
	add(g.ProtectedChanges, "changes of the enforcement's own files")
	add(g.StopGateBlocks, "stop-gate blocks")
	return strings.Join(parts, ", ")
}

package main

import (
	"cmp"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/clumsies/clumsies/evidence"
	"github.com/clumsies/clumsies/hub/hubwire"
)

// printHubEvidence prints the hub's evidence (hubwire.Evidence): what the
// gates recorded, per rule of a workspace, and each session's claims
// without evidence and its gate events.
func printHubEvidence(w io.Writer, e hubwire.Evidence) error {
	if len(e.Rules) == 0 && e.Edits == 0 && e.Gate == (evidence.Gate{}) {
		return nil
	}
	fmt.Fprintf(w, "\nEvidence: %d file edits recorded by hooks; %d claims without evidence\n", e.Edits, e.Unsupported)
	g := e.Gate
	fmt.Fprintf(w, "Gate: %d denied, %d warned, %d unchecked; %d in-scope changes before loading (ungated); "+
		"enforcement's own files: %d gated, %d changed; %d stop-gate blocks\n\n",
		g.Denials, g.Warnings, g.Unchecked, g.Ungated, g.ProtectedGated, g.ProtectedChanges, g.StopGateBlocks)
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "RULE\tWORKSPACE\tIN SCOPE\tEDITS BEFORE LOAD\tLOADED\tREFERENCED\tUNSUPPORTED\tDENIED\tWARNED\tUNGATED\tSTOP-GATED")
	for _, r := range e.Rules {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\n", cmp.Or(r.Path, r.ID), r.WorkspaceID, r.InScope, r.UnloadedEdits,
			r.Loaded, r.Referenced, r.Unsupported, r.Denials, r.Warnings, r.Ungated, r.StopGateBlocks)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, s := range e.Sessions {
		who := fmt.Sprintf("%s (%s, %s)", s.ID, cmp.Or(s.Member, s.Node), s.WorkspaceID)
		for _, r := range s.Rules {
			if r.Unsupported > 0 {
				fmt.Fprintf(w, "session %s: %d refs of %s claimed without evidence (%s)\n", who, r.Unsupported, r.ID, r.Why)
			}
		}
		if s.Gate != (evidence.Gate{}) {
			fmt.Fprintf(w, "session %s gate: %d denied, %d warned, %d unchecked, %d ungated, %d stop-gate blocks\n",
				who, s.Denials, s.Warnings, s.Unchecked, s.Ungated, s.StopGateBlocks)
		}
	}
	return nil
}

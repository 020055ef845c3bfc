package main

import (
	"cmp"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// printHubEvidence prints the hub's evidence (hubwire.Evidence): per rule
// of a workspace, and each session's claims without evidence.
func printHubEvidence(w io.Writer, e hubwire.Evidence) error {
	if len(e.Rules) == 0 && e.Edits == 0 {
		return nil
	}
	fmt.Fprintf(w, "\nEvidence: %d file edits recorded by hooks; %d claims without evidence\n\n", e.Edits, e.Unsupported)
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "RULE\tWORKSPACE\tIN SCOPE\tEDITS BEFORE LOAD\tLOADED\tREFERENCED\tUNSUPPORTED")
	for _, r := range e.Rules {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%d\t%d\n", cmp.Or(r.Path, r.ID), r.WorkspaceID, r.InScope, r.UnloadedEdits, r.Loaded, r.Referenced, r.Unsupported)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, s := range e.Sessions {
		for _, r := range s.Rules {
			if r.Unsupported > 0 {
				fmt.Fprintf(w, "session %s (%s, %s): %d refs of %s claimed without evidence (%s)\n",
					s.ID, cmp.Or(s.Member, s.Node), s.WorkspaceID, r.Unsupported, r.ID, r.Why)
			}
		}
	}
	return nil
}

package main

import (
	"cmp"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/clumsies/clumsies/stats"
)

// printEvidence prints the rules' evidence and each session's claims
// without evidence, naming a rule by its path where rules has it.
func printEvidence(w io.Writer, e stats.Evidence, rules []stats.Rule) error {
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

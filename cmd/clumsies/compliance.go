package main

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/clumsies/clumsies/stats"
)

// printCompliance prints the compliance of the sessions the hooks saw.
func printCompliance(w io.Writer, c stats.Compliance) error {
	if len(c.Sessions) == 0 {
		return nil
	}
	fmt.Fprintf(w, "\nCompliance: %d sessions announced by hooks, %d set up with the announced id, %d invented ids; "+
		"%d of %d prompts answered by a report; %d stops blocked; %d compliant sessions (enforce %s)\n\n",
		c.HookSessions, c.SetupWithHookID, c.InventedIDs, c.Answered, c.Prompts, c.StopsBlocked, c.Compliant, c.Enforce)
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SESSION\tHOST\tHOOK\tSETUP\tPROMPTS\tANSWERED\tREFS\tBLOCKED\tEDITS\tIN SCOPE\tLOADED\tUNGATED\tFLAG")
	for _, s := range c.Sessions {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%s\n", s.ID, s.Host, s.HookStarts, s.Setups, s.Prompts,
			s.Answered, s.Refs, s.StopsBlocked, s.Edits, s.RulesInScope, s.RulesLoaded, s.Ungated, complianceFlag(s, c.Enforce))
	}
	return tw.Flush()
}

// complianceFlag says what is first wrong with session s, "ok" when
// nothing is, and whether its claims could be judged against the files
// it touched.
func complianceFlag(s stats.SessionCompliance, enforce string) string {
	switch {
	case s.InventedID:
		return "invented id"
	case s.HookStarts > 0 && s.Setups == 0:
		return "no memsetup"
	case s.Prompts > s.Answered:
		return "unreported prompts"
	case s.Unsupported > 0:
		return "claimed without evidence"
	case stats.Enforcing(enforce) && s.Ungated > 0:
		return "changed before loading"
	case s.Compliant && s.NoHostEvidence && s.Refs > 0:
		return "ok, no evidence on this host"
	case s.Compliant:
		return "ok"
	}
	return ""
}

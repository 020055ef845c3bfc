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
		"%d of %d prompts answered by a report; %d stops blocked; %d compliant sessions\n\n",
		c.HookSessions, c.SetupWithHookID, c.InventedIDs, c.Answered, c.Prompts, c.StopsBlocked, c.Compliant)
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SESSION\tHOST\tHOOK\tSETUP\tPROMPTS\tANSWERED\tREFS\tBLOCKED\tEDITS\tIN SCOPE\tLOADED\tFLAG")
	for _, s := range c.Sessions {
		flag := ""
		switch {
		case s.InventedID:
			flag = "invented id"
		case s.HookStarts > 0 && s.Setups == 0:
			flag = "no memsetup"
		case s.Prompts > s.Answered:
			flag = "unreported prompts"
		case s.Unsupported > 0:
			flag = "claimed without evidence"
		case s.Compliant:
			flag = "ok"
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%s\n", s.ID, s.Host, s.HookStarts, s.Setups, s.Prompts,
			s.Answered, s.Refs, s.StopsBlocked, s.Edits, s.RulesInScope, s.RulesLoaded, flag)
	}
	return tw.Flush()
}

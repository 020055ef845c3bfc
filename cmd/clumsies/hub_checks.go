package main

import (
	"cmp"
	"fmt"
	"io"
	"strings"

	"github.com/clumsies/clumsies/hub/hubwire"
	"github.com/clumsies/clumsies/stats"
)

// printHubChecks prints what the rules' checks found per rule of a team,
// over every workspace of the team where they ran, as `clumsies stats`
// prints a workspace's.
func printHubChecks(w io.Writer, checks []hubwire.RuleChecks) error {
	if len(checks) == 0 {
		return nil
	}
	names := make([]string, len(checks))
	totals := make([]stats.RuleChecks, len(checks))
	for i, r := range checks {
		names[i] = fmt.Sprintf("%s (%s: %s)", cmp.Or(r.Path, r.ID), r.Team, strings.Join(r.Workspaces, ", "))
		totals[i] = r.CheckTotals
	}
	return printCheckTable(w, "per rule of a team over its workspaces", names, totals)
}

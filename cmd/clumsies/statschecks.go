package main

import (
	"cmp"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/clumsies/clumsies/stats"
)

// printChecks prints what the rules' checks found: per rule the sessions
// with a finding among those that had it loaded and those that had not,
// and per constraint the findings fixed, rejected and open.
func printChecks(w io.Writer, checks []stats.RuleChecks, rules []stats.Rule) error {
	if len(checks) == 0 {
		return nil
	}
	path := map[string]string{}
	for _, r := range rules {
		path[r.ID] = r.Path
	}
	names := make([]string, len(checks))
	for i, r := range checks {
		names[i] = cmp.Or(path[r.ID], r.ID)
	}
	return printCheckTable(w, "per rule", names, checks)
}

// printCheckTable prints checks, named by names (one each), under the
// title "Checks: ..., " + per.
func printCheckTable(w io.Writer, per string, names []string, checks []stats.RuleChecks) error {
	fmt.Fprintf(w, "\nChecks: sessions with a finding (95%% interval), %s; findings per constraint\n", per)
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "RULE\tSESSIONS\tLOADED\tNOT LOADED\tCONSTRAINT\tFOUND\tFIXED\tREJECTED\tOPEN")
	for i, r := range checks {
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t\t\t\t\t\n", names[i], r.Sessions, shareText(r.Loaded), shareText(r.Unloaded))
		for _, c := range r.Constraints {
			fmt.Fprintf(tw, "\t\t\t\t%s\t%d\t%d\t%d\t%d\n", c.ID, c.Found, c.Fixed, c.Rejected, c.Open)
		}
	}
	return tw.Flush()
}

// shareText is "k/n" with the share and its interval, or with the note
// that the sample is too small.
func shareText(s stats.Share) string {
	if s.Of == 0 {
		return "-"
	}
	if s.Rate == nil {
		return fmt.Sprintf("%d/%d (%s)", s.Count, s.Of, s.Note)
	}
	return fmt.Sprintf("%d/%d %.0f%% (%.0f-%.0f%%)", s.Count, s.Of, 100**s.Rate, 100**s.Low, 100**s.High)
}

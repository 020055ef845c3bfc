package main

import (
	"flag"

	"github.com/clumsies/clumsies/projections"
)

// rangeFlags registers the flags of a range of days, as `clumsies stats`
// and `clumsies hub stats` take them (package dayrange).
func rangeFlags(fs *flag.FlagSet, since, until *string, days *int) {
	fs.StringVar(since, "since", "", "count from this UTC `day` (YYYY-MM-DD), included")
	fs.StringVar(until, "until", "", "count up to this UTC `day` (YYYY-MM-DD), included")
	fs.IntVar(days, "days", 0, "count the last `N` UTC days, today included (instead of --since and --until)")
}

// complianceIn keeps of all the sessions in ss.
func complianceIn(all []projections.Compliance, ss []projections.Session) []projections.Compliance {
	in := make(map[string]bool, len(ss))
	for _, s := range ss {
		in[s.ID] = true
	}
	out := make([]projections.Compliance, 0, len(all))
	for _, c := range all {
		if in[c.ID] {
			out = append(out, c)
		}
	}
	return out
}

package main

import "flag"

// rangeFlags registers the flags of a range of days, as `clumsies stats`
// and `clumsies hub stats` take them (package dayrange).
func rangeFlags(fs *flag.FlagSet, since, until *string, days *int) {
	fs.StringVar(since, "since", "", "count from this UTC `day` (YYYY-MM-DD), included")
	fs.StringVar(until, "until", "", "count up to this UTC `day` (YYYY-MM-DD), included")
	fs.IntVar(days, "days", 0, "count the last `N` UTC days, today included (instead of --since and --until)")
}

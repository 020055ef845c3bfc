package main

import (
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/clumsies/clumsies/dayrange"
)

// rangeFlags registers the flags of a range of days, as `clumsies stats`
// and `clumsies hub stats` take them (package dayrange).
func rangeFlags(fs *flag.FlagSet, since, until *string, days *int) {
	fs.StringVar(since, "since", "", "count from this UTC `day` (YYYY-MM-DD), included")
	fs.StringVar(until, "until", "", "count up to this UTC `day` (YYYY-MM-DD), included")
	fs.IntVar(days, "days", 0, fmt.Sprintf("count the last `N` UTC days, today included, 1 to %d (instead of --since and --until; without any of them, all time)", dayrange.MaxDays))
}

// dayRange checks the range flags of fs once parsed: a --days given must
// be 1 to dayrange.MaxDays (0 is not "all time": that is leaving the
// flags out). Mistakes are usage errors in the flags' own words.
func dayRange(fs *flag.FlagSet, since, until string, days int, now time.Time) (dayrange.Range, error) {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == "days" })
	if given && days == 0 {
		return dayrange.Range{}, fmt.Errorf("%w: --days 0: want 1 to %d; leave --days, --since and --until out to count all time", errUsage, dayrange.MaxDays)
	}
	rg, err := dayrange.Of(since, until, days, now)
	if err != nil {
		return rg, fmt.Errorf("%w: --%s", errUsage, strings.TrimPrefix(err.Error(), dayrange.ErrInvalid.Error()+": "))
	}
	return rg, nil
}

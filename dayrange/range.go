package dayrange

import (
	"errors"
	"fmt"
	"time"
)

// Layout is the layout of a day: YYYY-MM-DD.
const Layout = "2006-01-02"

// MaxDays bounds a range given as a number of days.
const MaxDays = 3660

// ErrInvalid is returned for a range that cannot be read.
var ErrInvalid = errors.New("dayrange: invalid range")

// Range is a range of UTC days, both ends included. An empty end is
// open: the zero Range is all time.
type Range struct {
	Since string `json:"since,omitempty"` // first day, YYYY-MM-DD
	Until string `json:"until,omitempty"` // last day, YYYY-MM-DD
}

// Of reads a range as the commands and APIs take it: days > 0 is the last
// days days up to now's day (UTC), today included; otherwise since and
// until (YYYY-MM-DD, either may be empty). days with since or until is
// invalid, as is a since after until.
func Of(since, until string, days int, now time.Time) (Range, error) {
	switch {
	case days < 0 || days > MaxDays:
		return Range{}, fmt.Errorf("%w: days %d: want 1 to %d", ErrInvalid, days, MaxDays)
	case days > 0 && (since != "" || until != ""):
		return Range{}, fmt.Errorf("%w: days and since/until both given: give one or the other", ErrInvalid)
	case days > 0:
		return Last(days, now), nil
	}
	for _, d := range []struct{ name, v string }{{"since", since}, {"until", until}} {
		if d.v == "" {
			continue
		}
		if _, err := time.Parse(Layout, d.v); err != nil {
			return Range{}, fmt.Errorf("%w: %s %q: want a day as YYYY-MM-DD", ErrInvalid, d.name, d.v)
		}
	}
	if since != "" && until != "" && since > until {
		return Range{}, fmt.Errorf("%w: since %s is after until %s", ErrInvalid, since, until)
	}
	return Range{Since: since, Until: until}, nil
}

// Last returns the last n days up to now's day (UTC), today included.
func Last(n int, now time.Time) Range {
	to := now.UTC().Truncate(24 * time.Hour)
	return Range{Since: to.AddDate(0, 0, -(n - 1)).Format(Layout), Until: to.Format(Layout)}
}

// All reports whether r is all time.
func (r Range) All() bool { return r.Since == "" && r.Until == "" }

// Has reports whether r holds day (YYYY-MM-DD) or the day of an event
// time (events.TimeLayout, which starts with it).
func (r Range) Has(day string) bool {
	if len(day) > len(Layout) {
		day = day[:len(Layout)]
	}
	return (r.Since == "" || day >= r.Since) && (r.Until == "" || day <= r.Until)
}

// Bounds returns r's first and last day, an open end taken as first
// (for Since) or now's day (for Until).
func (r Range) Bounds(first string, now time.Time) (from, to time.Time, err error) {
	since, until := r.Since, r.Until
	if since == "" {
		since = first
	}
	if until == "" {
		until = now.UTC().Format(Layout)
	}
	if from, err = time.Parse(Layout, since); err != nil {
		return from, to, fmt.Errorf("%w: since %q", ErrInvalid, since)
	}
	if to, err = time.Parse(Layout, until); err != nil {
		return from, to, fmt.Errorf("%w: until %q", ErrInvalid, until)
	}
	return from, to, nil
}

// String names r for people: "all time", "since D", "until D" or "D1 to D2".
func (r Range) String() string {
	switch {
	case r.All():
		return "all time"
	case r.Until == "":
		return "since " + r.Since
	case r.Since == "":
		return "until " + r.Until
	}
	return r.Since + " to " + r.Until
}

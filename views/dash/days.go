package dash

import (
	"time"

	"github.com/clumsies/clumsies/dayrange"
	"github.com/clumsies/clumsies/projections"
)

// dayLayout is the layout of projections.Day.Day.
const dayLayout = dayrange.Layout

// fillDays returns the days (sorted, without gaps or with them) that r
// holds, with a row for every day from r's first day (or, for an open
// start, the first day with events) to r's last (or today, UTC, or the
// last day with events if that is later): a day without events is a row
// of zeros, so that a chart drawn from them has one slot per day and a
// quiet week shows as one. An open start without days gives no days; at
// most dayrange.MaxDays rows are given, the last ones.
func fillDays(days []projections.Day, r dayrange.Range, now time.Time) []projections.Day {
	in := make([]projections.Day, 0, len(days))
	for _, d := range days {
		if r.Has(d.Day) {
			in = append(in, d)
		}
	}
	if len(in) == 0 && r.Since == "" {
		return []projections.Day{}
	}
	first := r.Since
	if first == "" {
		first = in[0].Day
	}
	from, last, err := r.Bounds(first, now)
	if err != nil {
		return in
	}
	if n := len(in); r.Until == "" && n > 0 {
		if l, err := time.Parse(dayLayout, in[n-1].Day); err == nil && l.After(last) {
			last = l
		}
	}
	if earliest := last.AddDate(0, 0, -(dayrange.MaxDays - 1)); from.Before(earliest) {
		from = earliest
	}
	out := make([]projections.Day, 0, max(0, int(last.Sub(from).Hours()/24)+1))
	i := 0
	for i < len(in) && in[i].Day < from.Format(dayLayout) {
		i++
	}
	for d := from; !d.After(last); d = d.AddDate(0, 0, 1) {
		key := d.Format(dayLayout)
		if i < len(in) && in[i].Day == key {
			out = append(out, in[i])
			i++
			continue
		}
		out = append(out, projections.Day{Day: key})
	}
	return out
}

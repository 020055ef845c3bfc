package dash

import (
	"time"

	"github.com/clumsies/clumsies/projections"
)

// dayLayout is the layout of projections.Day.Day.
const dayLayout = "2006-01-02"

// fillDays returns days (sorted, without gaps or with them) with a row
// for every day from the first one to today (UTC), or to the last one if
// that is later: a day without events is a row of zeros, so that a chart
// drawn from them has one slot per day and a quiet week shows as one.
// No days gives no days.
func fillDays(days []projections.Day, now time.Time) []projections.Day {
	if len(days) == 0 {
		return []projections.Day{}
	}
	first, err := time.Parse(dayLayout, days[0].Day)
	if err != nil {
		return days
	}
	last := now.UTC().Truncate(24 * time.Hour)
	if l, err := time.Parse(dayLayout, days[len(days)-1].Day); err == nil && l.After(last) {
		last = l
	}
	out := make([]projections.Day, 0, int(last.Sub(first).Hours()/24)+1)
	i := 0
	for d := first; !d.After(last); d = d.AddDate(0, 0, 1) {
		key := d.Format(dayLayout)
		if i < len(days) && days[i].Day == key {
			out = append(out, days[i])
			i++
			continue
		}
		out = append(out, projections.Day{Day: key})
	}
	return out
}

package hub

import (
	"fmt"
	"slices"
	"time"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// trendOf returns the trend of period from daily, a trend with a point
// for every day of a range in order: each period's point sums its days,
// every period of the range has one, and a daily trend is daily itself.
func trendOf(daily []hubwire.TrendPoint, period string) ([]hubwire.TrendPoint, error) {
	if period == hubwire.PeriodDaily {
		return slices.Clone(daily), nil
	}
	out := []hubwire.TrendPoint{}
	for _, p := range daily {
		d, err := time.Parse(time.DateOnly, p.Period)
		if err != nil {
			return nil, fmt.Errorf("the trend's day %q: %w", p.Period, err)
		}
		if start := periodStart(d, period); len(out) == 0 || out[len(out)-1].Period != start {
			out = append(out, hubwire.TrendPoint{Period: start})
		}
		addPoint(&out[len(out)-1], p)
	}
	return out, nil
}

// addPoint adds p's figures to t's.
func addPoint(t *hubwire.TrendPoint, p hubwire.TrendPoint) {
	t.Events += p.Events
	t.Refs += p.Refs
	t.Loads += p.Loads
	t.Sessions += p.Sessions
	t.SessionsHooksOnly += p.SessionsHooksOnly
	t.Reports += p.Reports
}

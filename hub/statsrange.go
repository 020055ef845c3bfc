package hub

import (
	"fmt"
	"time"

	"github.com/clumsies/clumsies/dayrange"
)

// defaultDays is how many days a stats query without a range counts.
const defaultDays = 30

// window returns the first and last day q counts (package dayrange: Days,
// or Since and Until; an open Since is defaultDays before Until, an open
// Until is today), refusing a range of more than dayrange.MaxDays.
func (q Query) window() (from, to time.Time, err error) {
	now := q.Now
	if now.IsZero() {
		now = time.Now()
	}
	rg, err := dayrange.Of(q.Since, q.Until, q.Days, now)
	if err != nil {
		return from, to, fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	if rg.All() {
		rg = dayrange.Last(defaultDays, now)
	}
	first := ""
	if rg.Since == "" {
		end, err := time.Parse(dayrange.Layout, rg.Until)
		if err != nil {
			return from, to, fmt.Errorf("%w: until %q", ErrInvalid, rg.Until)
		}
		first = end.AddDate(0, 0, -(defaultDays - 1)).Format(dayrange.Layout)
	}
	if from, to, err = rg.Bounds(first, now); err != nil {
		return from, to, fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	if n := int(to.Sub(from).Hours()/24) + 1; n > dayrange.MaxDays {
		return from, to, fmt.Errorf("%w: %s counts %d days: want at most %d", ErrInvalid, rg, n, dayrange.MaxDays)
	}
	return from, to, nil
}

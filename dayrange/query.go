package dayrange

import (
	"fmt"
	"net/url"
	"strconv"
	"time"
)

// FromQuery reads a range from the parameters since, until and days of a
// request, as Of takes them.
func FromQuery(q url.Values, now time.Time) (Range, error) {
	days := 0
	if d := q.Get("days"); d != "" {
		n, err := strconv.Atoi(d)
		if err != nil {
			return Range{}, fmt.Errorf("%w: days %q is not a number", ErrInvalid, d)
		}
		if n == 0 {
			return Range{}, fmt.Errorf("%w: days 0: want 1 to %d", ErrInvalid, MaxDays)
		}
		days = n
	}
	return Of(q.Get("since"), q.Get("until"), days, now)
}

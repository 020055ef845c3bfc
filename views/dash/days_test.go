package dash

import (
	"testing"
	"time"

	"github.com/clumsies/clumsies/dayrange"
	"github.com/clumsies/clumsies/projections"
)

func TestFillDays_Range(t *testing.T) {
	now := time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)
	days := []projections.Day{{Day: "2026-02-01", Refs: 1}, {Day: "2026-03-05", Refs: 2}, {Day: "2026-03-09", Refs: 3}}
	for _, c := range []struct {
		r           dayrange.Range
		first, last string
		n           int
		refs        uint64
	}{
		{dayrange.Range{}, "2026-02-01", "2026-03-10", 38, 6},
		{dayrange.Range{Since: "2026-03-04", Until: "2026-03-06"}, "2026-03-04", "2026-03-06", 3, 2},
		{dayrange.Range{Since: "2026-03-08"}, "2026-03-08", "2026-03-10", 3, 3},
		{dayrange.Range{Until: "2026-02-02"}, "2026-02-01", "2026-02-02", 2, 1},
		{dayrange.Range{Since: "2026-01-01", Until: "2026-01-03"}, "2026-01-01", "2026-01-03", 3, 0},
	} {
		got := fillDays(days, c.r, now)
		var refs uint64
		for _, d := range got {
			refs += d.Refs
		}
		if len(got) != c.n || got[0].Day != c.first || got[len(got)-1].Day != c.last || refs != c.refs {
			t.Errorf("fillDays(%v): %d days from %s to %s with %d refs, want %d from %s to %s with %d",
				c.r, len(got), got[0].Day, got[len(got)-1].Day, refs, c.n, c.first, c.last, c.refs)
		}
	}
	if got := fillDays(nil, dayrange.Range{}, now); len(got) != 0 {
		t.Errorf("fillDays of no days over all time: %d days, want none", len(got))
	}
}

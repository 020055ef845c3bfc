package dayrange_test

import (
	"errors"
	"testing"
	"time"

	"github.com/clumsies/clumsies/dayrange"
)

func TestOf(t *testing.T) {
	now := time.Date(2026, 3, 10, 15, 4, 5, 0, time.UTC)
	for _, c := range []struct {
		since, until string
		days         int
		want         dayrange.Range
		bad          bool
	}{
		{want: dayrange.Range{}},
		{days: 1, want: dayrange.Range{Since: "2026-03-10", Until: "2026-03-10"}},
		{days: 7, want: dayrange.Range{Since: "2026-03-04", Until: "2026-03-10"}},
		{since: "2026-01-01", want: dayrange.Range{Since: "2026-01-01"}},
		{since: "2026-01-01", until: "2026-01-31", want: dayrange.Range{Since: "2026-01-01", Until: "2026-01-31"}},
		{since: "2026-02-01", until: "2026-01-31", bad: true},
		{since: "yesterday", bad: true},
		{days: 7, since: "2026-01-01", bad: true},
		{days: -1, bad: true},
		{days: dayrange.MaxDays + 1, bad: true},
	} {
		got, err := dayrange.Of(c.since, c.until, c.days, now)
		if c.bad {
			if !errors.Is(err, dayrange.ErrInvalid) {
				t.Errorf("Of(%q, %q, %d): got %v, %v, want ErrInvalid", c.since, c.until, c.days, got, err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("Of(%q, %q, %d) = %v, %v, want %v", c.since, c.until, c.days, got, err, c.want)
		}
	}
}

func TestRange_Has(t *testing.T) {
	r := dayrange.Range{Since: "2026-03-04", Until: "2026-03-10"}
	for day, want := range map[string]bool{
		"2026-03-03": false, "2026-03-04": true, "2026-03-10": true, "2026-03-11": false,
		"2026-03-10T23:59:59.999Z": true, "2026-03-03T23:59:59.999Z": false,
	} {
		if got := r.Has(day); got != want {
			t.Errorf("%v.Has(%s) = %v, want %v", r, day, got, want)
		}
	}
	if !(dayrange.Range{}).Has("1999-01-01") {
		t.Error("all time does not hold 1999-01-01")
	}
}

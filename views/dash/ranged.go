package dash

import (
	"github.com/clumsies/clumsies/dayrange"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/projections"
)

// The figures of a range of days. What the read models count per day
// (events, tool calls, errors, refs, refs per rule) is summed over the
// range's days; a session belongs to the day of its first event, as the
// hub counts it, and brings its evidence with it. `clumsies stats` and
// the API both use these, so that their figures for a range agree.

// SumDays sums the days r holds.
func SumDays(days []projections.Day, r dayrange.Range) projections.Day {
	var t projections.Day
	for _, d := range days {
		if r.Has(d.Day) {
			t.Events += d.Events
			t.Calls += d.Calls
			t.Errors += d.Errors
			t.Refs += d.Refs
			t.Setups += d.Setups
		}
	}
	return t
}

// SessionsIn returns the sessions of all first seen in r, in their order.
func SessionsIn(all []projections.Session, r dayrange.Range) []projections.Session {
	if r.All() {
		return all
	}
	out := make([]projections.Session, 0, len(all))
	for _, s := range all {
		if r.Has(s.First) {
			out = append(out, s)
		}
	}
	return out
}

// Kinds counts the sessions set up and those seen by hooks only.
func Kinds(ss []projections.Session) (setUp, hooksOnly int) {
	var c events.KindCounts
	for _, s := range ss {
		c.Add(s.Kind())
	}
	return c.SetUp, c.HooksOnly
}

// OfSessions keeps of all the rows of the sessions in ss, id naming a
// row's session.
func OfSessions[T any](all []T, ss []projections.Session, id func(T) string) []T {
	in := make(map[string]bool, len(ss))
	for _, s := range ss {
		in[s.ID] = true
	}
	out := make([]T, 0, len(all))
	for _, r := range all {
		if in[id(r)] {
			out = append(out, r)
		}
	}
	return out
}

// EvidenceOf keeps of ev the sessions in ss.
func EvidenceOf(ev []projections.SessionEvidence, ss []projections.Session) []projections.SessionEvidence {
	return OfSessions(ev, ss, func(e projections.SessionEvidence) string { return e.ID })
}

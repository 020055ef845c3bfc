package main

import (
	"fmt"
	"slices"
)

// soakPoint is one hub's sample of a soak minute: when it was taken, in
// minutes since the soak's start (a sample follows its minute of probes,
// which can run past the minute); its RSS, its Go heap in use after a
// collection and what of that heap the de-duplication ids hold, in MiB
// (negative when unread); and its goroutines (negative when unread).
type soakPoint struct {
	at, rss, heap, ids float64
	goroutines         int
}

// soakSettled is the first sample (one a minute) a soak's trend is read
// from: the
// aggregate keeps every event's Nats-Msg-Id for its 10-minute
// de-duplication window, so the heap fills until then by design.
const soakSettled = 11

// soakTrend says how one hub's samples move from sample from on: the
// range of each measure and its least-squares slope per 10 minutes of
// the time the samples were taken,
// which a cache that levels off keeps near zero and growth without bound
// does not. The de-duplication ids rise and fall in a saw tooth longer
// than a soak of 30 minutes (docs/hub.md), so their slope over the soak
// is not a trend: the heap besides them is the measure that says whether
// anything else grows. It is empty with fewer than 3 samples from
// sample from.
func soakTrend(points []soakPoint, from int) string {
	if len(points)-from < 3 {
		return ""
	}
	tail := points[from:]
	rss, heap, ids, gor := pick(tail, func(p soakPoint) float64 { return p.rss }),
		pick(tail, func(p soakPoint) float64 { return p.heap }),
		pick(tail, func(p soakPoint) float64 { return p.ids }),
		pick(tail, func(p soakPoint) float64 { return float64(p.goroutines) })
	rest := pick(tail, func(p soakPoint) float64 {
		if p.heap < 0 || p.ids < 0 {
			return -1
		}
		return p.heap - p.ids
	})
	return fmt.Sprintf("heap after a collection %s; of it the de-duplication ids %s; the heap besides those ids %s; RSS %s; goroutines %s",
		spread(heap, " MiB", from), spread(ids, " MiB", from), spread(rest, " MiB", from), spread(rss, " MiB", from), spread(gor, "", from))
}

// soakSeries is one measure's samples: when each was taken (minutes) and
// its value.
type soakSeries struct{ at, ys []float64 }

// pick is the measure f of each point it was read for (f >= 0).
func pick(points []soakPoint, f func(soakPoint) float64) soakSeries {
	var s soakSeries
	for _, p := range points {
		if v := f(p); v >= 0 {
			s.at, s.ys = append(s.at, p.at), append(s.ys, v)
		}
	}
	return s
}

// spread is "min-max unit (slope per 10 minutes)" of s, or "unread".
func spread(s soakSeries, unit string, from int) string {
	if len(s.ys) < 3 {
		return "unread"
	}
	return fmt.Sprintf("%.0f-%.0f%s (%+.1f per 10 minutes, %d samples from sample %d)", slices.Min(s.ys), slices.Max(s.ys), unit, 10*slope(s.at, s.ys), len(s.ys), from)
}

// slope is the least-squares slope of ys against xs.
func slope(xs, ys []float64) float64 {
	n := float64(len(ys))
	var sx, sy, sxx, sxy float64
	for i, y := range ys {
		x := xs[i]
		sx += x
		sy += y
		sxx += x * x
		sxy += x * y
	}
	d := n*sxx - sx*sx
	if d == 0 {
		return 0
	}
	return (n*sxy - sx*sy) / d
}

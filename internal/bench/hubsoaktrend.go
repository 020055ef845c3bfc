package main

import (
	"fmt"
	"slices"
)

// soakPoint is one hub's sample of a soak minute: its RSS, its Go heap
// in use after a collection and what of that heap the de-duplication ids
// hold, in MiB (negative when unread), and its goroutines (negative when
// unread).
type soakPoint struct {
	rss, heap, ids float64
	goroutines     int
}

// soakSettled is the first minute a soak's trend is read from: the
// aggregate keeps every event's Nats-Msg-Id for its 10-minute
// de-duplication window, so the heap fills until then by design.
const soakSettled = 11

// soakTrend says how one hub's samples move from minute from on: the
// range of each measure and its least-squares slope per 10 minutes,
// which a cache that levels off keeps near zero and growth without bound
// does not. The de-duplication ids rise and fall in a saw tooth longer
// than a soak of 30 minutes (docs/hub.md), so their slope over the soak
// is not a trend: the heap besides them is the measure that says whether
// anything else grows. It is empty with fewer than 3 samples from
// minute from.
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

// pick is the measure f of each point it was read for (f >= 0).
func pick(points []soakPoint, f func(soakPoint) float64) []float64 {
	var ys []float64
	for _, p := range points {
		if v := f(p); v >= 0 {
			ys = append(ys, v)
		}
	}
	return ys
}

// spread is "min-max unit (slope per 10 minutes)" of ys, or "unread".
func spread(ys []float64, unit string, from int) string {
	if len(ys) < 3 {
		return "unread"
	}
	return fmt.Sprintf("%.0f-%.0f%s (%+.1f per 10 minutes, %d samples from minute %d)", slices.Min(ys), slices.Max(ys), unit, 10*slope(ys), len(ys), from)
}

// slope is the least-squares slope of ys against their index.
func slope(ys []float64) float64 {
	n := float64(len(ys))
	var sx, sy, sxx, sxy float64
	for i, y := range ys {
		x := float64(i)
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

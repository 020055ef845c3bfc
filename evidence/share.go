package evidence

import "math"

// MinSample is the fewest sessions a share is given for: below it, the
// figures say there are too few to tell.
const MinSample = 10

// wilsonZ is the normal quantile of a 95% interval.
const wilsonZ = 1.959964

// Share is a part of some sessions: k of n, and, from MinSample sessions
// on, k/n with its 95% Wilson score interval, which stays inside [0, 1]
// and is honest for small counts and shares near 0 or 1. Below MinSample
// it says so in Note instead of giving a percentage.
type Share struct {
	Of    int      `json:"of"`
	Count int      `json:"count"`
	Rate  *float64 `json:"rate,omitempty"`
	Low   *float64 `json:"low,omitempty"`
	High  *float64 `json:"high,omitempty"`
	Note  string   `json:"note,omitempty"`
}

// ShareOf is the Share of k in n.
func ShareOf(k, n int) Share {
	s := Share{Of: n, Count: k}
	if n < MinSample {
		s.Note = "too few sessions to tell"
		return s
	}
	low, high := wilson(k, n)
	p := float64(k) / float64(n)
	s.Rate, s.Low, s.High = &p, &low, &high
	return s
}

// wilson is the 95% Wilson score interval of k successes in n trials.
func wilson(k, n int) (low, high float64) {
	p, nf, z2 := float64(k)/float64(n), float64(n), wilsonZ*wilsonZ
	den := 1 + z2/nf
	center := (p + z2/(2*nf)) / den
	half := wilsonZ / den * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf))
	return max(0, center-half), min(1, center+half)
}

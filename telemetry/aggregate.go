package telemetry

import (
	"math"
	"sort"
)

// maxSeries bounds the attribute sets an instrument keeps, as the SDK's
// default cardinality limit does: past it, calls are counted in one
// series marked otel.metric.overflow = true.
const maxSeries = 2000

// overflow is the attribute set of the series past maxSeries.
var overflow = []attr{boolAttr("otel.metric.overflow", true)}

// series finds an instrument's point by its attribute set, within
// maxSeries. P is the point's type.
type series[P any] struct {
	index  map[string]int // by setKey
	points []P
	attrs  [][]attr // the attribute set of each point
}

// point returns the point of attrs, made by fresh when it is new.
func (s *series[P]) point(attrs []attr, fresh func() P) *P {
	key := setKey(attrs)
	i, ok := s.index[key]
	if !ok {
		if len(s.points) >= maxSeries-1 {
			key, attrs = setKey(overflow), overflow
			i, ok = s.index[key]
		}
		if !ok {
			if s.index == nil {
				s.index = map[string]int{}
			}
			i = len(s.points)
			s.index[key] = i
			s.points = append(s.points, fresh())
			s.attrs = append(s.attrs, attrs)
		}
	}
	return &s.points[i]
}

// counter is a monotonic sum per attribute set, cumulative from the
// export's start.
type counter struct {
	series[int64]
}

func (c *counter) add(n int64, attrs ...attr) {
	*c.point(attrs, func() int64 { return 0 }) += n
}

// histogram counts values in explicit buckets per attribute set,
// cumulative from the export's start.
type histogram struct {
	bounds []float64
	series[histogramPoint]
}

// histogramPoint is a histogram's point: buckets[i] counts the values in
// (bounds[i-1], bounds[i]], the last those above the last bound.
type histogramPoint struct {
	count    uint64
	sum      float64
	min, max float64
	buckets  []uint64
}

func (h *histogram) record(v float64, attrs []attr) {
	p := h.point(attrs, func() histogramPoint {
		return histogramPoint{min: math.Inf(1), max: math.Inf(-1), buckets: make([]uint64, len(h.bounds)+1)}
	})
	p.count++
	p.sum += v
	p.min = min(p.min, v)
	p.max = max(p.max, v)
	p.buckets[sort.SearchFloat64s(h.bounds, v)]++
}

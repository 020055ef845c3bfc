package telemetry

import (
	"math"
	"time"

	"google.golang.org/protobuf/encoding/protowire"
)

// temporalityCumulative is OTLP's AggregationTemporality of sums and
// histograms counted from the export's start.
const temporalityCumulative = 2

// metricsRequest is what an ExportMetricsServiceRequest reports: the
// instruments' points from start to now, and the calls dropped.
type metricsRequest struct {
	resource   []attr
	in         *instruments
	dropped    uint64
	start, now time.Time
}

// appendMetricsRequest appends an ExportMetricsServiceRequest of one
// ResourceMetrics of one ScopeMetrics.
func appendMetricsRequest(b []byte, r metricsRequest) []byte {
	return message(b, 1, func(b []byte) []byte {
		b = appendResource(b, 1, r.resource)
		return message(b, 2, func(b []byte) []byte {
			b = appendScope(b, 1)
			b = appendMetric(b, metricDuration, descDuration, "s", func(b []byte) []byte { return r.appendHistogram(b, &r.in.duration) })
			b = appendMetric(b, metricCalls, descCalls, "{call}", func(b []byte) []byte { return r.appendSum(b, &r.in.calls) })
			b = appendMetric(b, metricLoads, descLoads, "{load}", func(b []byte) []byte { return r.appendSum(b, &r.in.loads) })
			b = appendMetric(b, metricRefs, descRefs, "{reference}", func(b []byte) []byte { return r.appendSum(b, &r.in.refs) })
			dropped := counter{series[int64]{points: []int64{int64(r.dropped)}, attrs: [][]attr{nil}}}
			return appendMetric(b, metricDropped, descDropped, "{call}", func(b []byte) []byte { return r.appendSum(b, &dropped) })
		})
	})
}

// appendMetric appends a Metric (metrics/v1) as field 2 of ScopeMetrics,
// data appending its sum or histogram; a metric with no point yet is
// left out, as the SDK leaves it.
func appendMetric(b []byte, name, desc, unit string, data func([]byte) []byte) []byte {
	mark := len(b)
	empty := false
	b = message(b, 2, func(b []byte) []byte {
		b = appendString(b, 1, name)
		b = appendString(b, 2, desc)
		b = appendString(b, 3, unit)
		n := len(b)
		b = data(b)
		empty = len(b) == n
		return b
	})
	if empty {
		return b[:mark]
	}
	return b
}

// appendSum appends c's points as a monotonic cumulative Sum (field 7),
// nothing when it has none.
func (r metricsRequest) appendSum(b []byte, c *counter) []byte {
	if len(c.points) == 0 {
		return b
	}
	return message(b, 7, func(b []byte) []byte {
		for i, v := range c.points {
			b = message(b, 1, func(b []byte) []byte {
				b = r.appendTimes(b)
				b = protowire.AppendFixed64(protowire.AppendTag(b, 6, protowire.Fixed64Type), uint64(v)) // as_int
				return appendAttributes(b, 7, c.attrs[i])
			})
		}
		b = appendVarint(b, 2, temporalityCumulative)
		return appendVarint(b, 3, 1) // is_monotonic
	})
}

// appendHistogram appends h's points as a cumulative Histogram (field
// 9), nothing when it has none.
func (r metricsRequest) appendHistogram(b []byte, h *histogram) []byte {
	if len(h.points) == 0 {
		return b
	}
	return message(b, 9, func(b []byte) []byte {
		for i := range h.points {
			p := &h.points[i]
			b = message(b, 1, func(b []byte) []byte {
				b = r.appendTimes(b)
				b = appendFixed64(b, 4, p.count)
				b = appendDouble(b, 5, p.sum)
				b = message(b, 6, func(b []byte) []byte {
					for _, c := range p.buckets {
						b = protowire.AppendFixed64(b, c)
					}
					return b
				})
				b = message(b, 7, func(b []byte) []byte {
					for _, x := range h.bounds {
						b = protowire.AppendFixed64(b, math.Float64bits(x))
					}
					return b
				})
				b = appendAttributes(b, 9, h.attrs[i])
				b = appendDouble(b, 11, p.min)
				return appendDouble(b, 12, p.max)
			})
		}
		return appendVarint(b, 2, temporalityCumulative)
	})
}

// appendTimes appends a point's start_time_unix_nano and time_unix_nano.
func (r metricsRequest) appendTimes(b []byte) []byte {
	b = appendFixed64(b, 2, uint64(r.start.UnixNano()))
	return appendFixed64(b, 3, uint64(r.now.UnixNano()))
}

package telemetry

import (
	"context"
	"math"
	"sync"
	"time"

	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	"google.golang.org/protobuf/encoding/protowire"
)

// metricExporter sends the SDK's periodic collections to the collector's
// /v1/metrics as an OTLP ExportMetricsServiceRequest. It takes the SDK's
// default temporality (cumulative) and aggregations.
type metricExporter struct {
	post *poster
	mu   sync.Mutex // guards buf
	buf  []byte
}

var _ sdkmetric.Exporter = (*metricExporter)(nil)

func (e *metricExporter) Temporality(k sdkmetric.InstrumentKind) metricdata.Temporality {
	return sdkmetric.DefaultTemporalitySelector(k)
}

func (e *metricExporter) Aggregation(k sdkmetric.InstrumentKind) sdkmetric.Aggregation {
	return sdkmetric.DefaultAggregationSelector(k)
}

// Export sends rm in one request; it returns the error of a request the
// collector refused or that did not arrive.
func (e *metricExporter) Export(ctx context.Context, rm *metricdata.ResourceMetrics) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.buf = appendMetricsRequest(e.buf[:0], rm)
	return e.post.send(ctx, e.buf)
}

func (e *metricExporter) ForceFlush(context.Context) error { return nil }
func (e *metricExporter) Shutdown(context.Context) error   { return nil }

// appendMetricsRequest appends an ExportMetricsServiceRequest of one
// ResourceMetrics.
func appendMetricsRequest(b []byte, rm *metricdata.ResourceMetrics) []byte {
	return message(b, 1, func(b []byte) []byte {
		b = appendResource(b, 1, rm.Resource)
		for _, sm := range rm.ScopeMetrics {
			b = message(b, 2, func(b []byte) []byte {
				b = appendScope(b, 1, sm.Scope)
				for _, m := range sm.Metrics {
					b = message(b, 2, func(b []byte) []byte { return appendMetric(b, m) })
				}
				return appendString(b, 3, sm.Scope.SchemaURL)
			})
		}
		if rm.Resource != nil {
			b = appendString(b, 3, rm.Resource.SchemaURL())
		}
		return b
	})
}

// appendMetric appends the fields of a Metric (metrics/v1). The kinds of
// data this package's instruments make are sums and histograms; gauges
// are written too, anything else (exponential histograms, summaries)
// only by its name.
func appendMetric(b []byte, m metricdata.Metrics) []byte {
	b = appendString(b, 1, m.Name)
	b = appendString(b, 2, m.Description)
	b = appendString(b, 3, m.Unit)
	switch d := m.Data.(type) {
	case metricdata.Sum[int64]:
		b = appendSum(b, d)
	case metricdata.Sum[float64]:
		b = appendSum(b, d)
	case metricdata.Gauge[int64]:
		b = message(b, 5, func(b []byte) []byte { return appendNumberPoints(b, d.DataPoints) })
	case metricdata.Gauge[float64]:
		b = message(b, 5, func(b []byte) []byte { return appendNumberPoints(b, d.DataPoints) })
	case metricdata.Histogram[int64]:
		b = appendHistogram(b, d)
	case metricdata.Histogram[float64]:
		b = appendHistogram(b, d)
	}
	return b
}

func appendSum[N int64 | float64](b []byte, s metricdata.Sum[N]) []byte {
	return message(b, 7, func(b []byte) []byte {
		b = appendNumberPoints(b, s.DataPoints)
		b = appendVarint(b, 2, temporality(s.Temporality))
		if s.IsMonotonic {
			b = appendVarint(b, 3, 1)
		}
		return b
	})
}

// appendNumberPoints appends each point as a NumberDataPoint in field 1.
func appendNumberPoints[N int64 | float64](b []byte, points []metricdata.DataPoint[N]) []byte {
	for _, p := range points {
		b = message(b, 1, func(b []byte) []byte {
			b = appendFixed64(b, 2, unixNano(p.StartTime))
			b = appendFixed64(b, 3, unixNano(p.Time))
			switch v := any(p.Value).(type) {
			case int64:
				b = appendFixed64(b, 6, uint64(v))
			case float64:
				b = appendDouble(b, 4, v)
			}
			return appendAttributes(b, 7, p.Attributes.ToSlice())
		})
	}
	return b
}

func appendHistogram[N int64 | float64](b []byte, h metricdata.Histogram[N]) []byte {
	return message(b, 9, func(b []byte) []byte {
		for _, p := range h.DataPoints {
			b = message(b, 1, func(b []byte) []byte {
				b = appendFixed64(b, 2, unixNano(p.StartTime))
				b = appendFixed64(b, 3, unixNano(p.Time))
				b = appendFixed64(b, 4, p.Count)
				b = appendDouble(b, 5, float64(p.Sum))
				b = message(b, 6, func(b []byte) []byte {
					for _, c := range p.BucketCounts {
						b = protowire.AppendFixed64(b, c)
					}
					return b
				})
				b = message(b, 7, func(b []byte) []byte {
					for _, x := range p.Bounds {
						b = protowire.AppendFixed64(b, math.Float64bits(x))
					}
					return b
				})
				b = appendAttributes(b, 9, p.Attributes.ToSlice())
				if v, ok := p.Min.Value(); ok {
					b = appendDouble(b, 11, float64(v))
				}
				if v, ok := p.Max.Value(); ok {
					b = appendDouble(b, 12, float64(v))
				}
				return b
			})
		}
		return appendVarint(b, 2, temporality(h.Temporality))
	})
}

// temporality is OTLP's AggregationTemporality of t.
func temporality(t metricdata.Temporality) uint64 {
	return wireEnum(t, metricdata.DeltaTemporality, metricdata.CumulativeTemporality)
}

func unixNano(t time.Time) uint64 {
	if t.IsZero() {
		return 0
	}
	return uint64(t.UnixNano())
}

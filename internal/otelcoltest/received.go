package otelcoltest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"
)

// Span is a span the collector received.
type Span struct {
	TraceID, SpanID, ParentSpanID string
	Name                          string
	Kind                          int // 2: server
	StatusCode                    int // 2: error
	StatusMessage                 string
	Attrs                         map[string]any // strings, bools, int64s, float64s, []any
	Resource                      map[string]any
}

// Point is a data point of a metric the collector received: a sum's
// value, or a histogram's count.
type Point struct {
	Metric string
	Attrs  map[string]any
	Value  float64
}

// Received is everything the collector has received.
type Received struct {
	Spans  []Span
	Points []Point
	Raw    []byte // the exporter's file as written
}

// Received reads what the collector has exported so far.
func (c *Collector) Received(tb testing.TB) Received {
	tb.Helper()
	r, err := c.Read()
	if err != nil {
		tb.Fatal(err)
	}
	return r
}

// Read reads what the collector has exported so far.
func (c *Collector) Read() (Received, error) {
	b, err := os.ReadFile(c.out)
	if err != nil && !os.IsNotExist(err) {
		return Received{}, fmt.Errorf("read the collector's output: %w", err)
	}
	r := Received{Raw: b}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	for sc.Scan() {
		var doc otlpDoc
		if err := json.Unmarshal(sc.Bytes(), &doc); err != nil {
			return Received{}, fmt.Errorf("decode the collector's output: %w\n%s", err, sc.Bytes())
		}
		doc.collect(&r)
	}
	return r, nil
}

// Wait waits until what the collector received satisfies ok, and returns
// it.
func (c *Collector) Wait(tb testing.TB, within time.Duration, ok func(Received) bool) Received {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), within)
	defer cancel()
	for {
		r := c.Received(tb)
		if ok(r) {
			return r
		}
		select {
		case <-ctx.Done():
			tb.Fatalf("the collector did not receive what the test waits for within %v; it has:\n%s\ncollector log:\n%s", within, r.Raw, c.Log())
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// The OTLP/JSON documents the exporter writes, as far as the tests read
// them.
type otlpDoc struct {
	ResourceSpans []struct {
		Resource   otlpResource `json:"resource"`
		ScopeSpans []struct {
			Spans []struct {
				TraceID      string     `json:"traceId"`
				SpanID       string     `json:"spanId"`
				ParentSpanID string     `json:"parentSpanId"`
				Name         string     `json:"name"`
				Kind         int        `json:"kind"`
				Attributes   []otlpAttr `json:"attributes"`
				Status       otlpStatus `json:"status"`
			} `json:"spans"`
		} `json:"scopeSpans"`
	} `json:"resourceSpans"`
	ResourceMetrics []struct {
		ScopeMetrics []struct {
			Metrics []struct {
				Name      string      `json:"name"`
				Sum       *otlpPoints `json:"sum"`
				Gauge     *otlpPoints `json:"gauge"`
				Histogram *otlpPoints `json:"histogram"`
			} `json:"metrics"`
		} `json:"scopeMetrics"`
	} `json:"resourceMetrics"`
}

type otlpResource struct {
	Attributes []otlpAttr `json:"attributes"`
}

type otlpStatus struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

type otlpPoints struct {
	DataPoints []otlpPoint `json:"dataPoints"`
}

type otlpPoint struct {
	Attributes []otlpAttr `json:"attributes"`
	AsInt      string     `json:"asInt"`
	AsDouble   *float64   `json:"asDouble"`
	Count      string     `json:"count"` // a histogram's
}

// number is a sum's or gauge's value, or a histogram's count.
func (p otlpPoint) number() float64 {
	switch {
	case p.AsDouble != nil:
		return *p.AsDouble
	case p.AsInt != "":
		n, _ := strconv.ParseInt(p.AsInt, 10, 64)
		return float64(n)
	}
	n, _ := strconv.ParseUint(p.Count, 10, 64)
	return float64(n)
}

type otlpAttr struct {
	Key   string    `json:"key"`
	Value otlpValue `json:"value"`
}

type otlpValue struct {
	StringValue *string  `json:"stringValue"`
	BoolValue   *bool    `json:"boolValue"`
	IntValue    *string  `json:"intValue"`
	DoubleValue *float64 `json:"doubleValue"`
	ArrayValue  *struct {
		Values []otlpValue `json:"values"`
	} `json:"arrayValue"`
}

func (v otlpValue) value() any {
	switch {
	case v.StringValue != nil:
		return *v.StringValue
	case v.BoolValue != nil:
		return *v.BoolValue
	case v.IntValue != nil:
		n, _ := strconv.ParseInt(*v.IntValue, 10, 64)
		return n
	case v.DoubleValue != nil:
		return *v.DoubleValue
	case v.ArrayValue != nil:
		out := []any{}
		for _, e := range v.ArrayValue.Values {
			out = append(out, e.value())
		}
		return out
	}
	return nil
}

func attrMap(as []otlpAttr) map[string]any {
	m := make(map[string]any, len(as))
	for _, a := range as {
		m[a.Key] = a.Value.value()
	}
	return m
}

func (d otlpDoc) collect(r *Received) {
	for _, rs := range d.ResourceSpans {
		res := attrMap(rs.Resource.Attributes)
		for _, ss := range rs.ScopeSpans {
			for _, s := range ss.Spans {
				r.Spans = append(r.Spans, Span{
					TraceID: s.TraceID, SpanID: s.SpanID, ParentSpanID: s.ParentSpanID, Name: s.Name, Kind: s.Kind,
					StatusCode: s.Status.Code, StatusMessage: s.Status.Message, Attrs: attrMap(s.Attributes), Resource: res,
				})
			}
		}
	}
	for _, rm := range d.ResourceMetrics {
		for _, sm := range rm.ScopeMetrics {
			for _, m := range sm.Metrics {
				for _, ps := range []*otlpPoints{m.Sum, m.Gauge, m.Histogram} {
					if ps == nil {
						continue
					}
					for _, p := range ps.DataPoints {
						r.Points = append(r.Points, Point{Metric: m.Name, Attrs: attrMap(p.Attributes), Value: p.number()})
					}
				}
			}
		}
	}
}

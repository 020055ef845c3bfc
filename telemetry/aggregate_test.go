package telemetry

import (
	"fmt"
	"slices"
	"testing"
)

// TestHistogram_Buckets checks the buckets' bounds (a value on a bound
// counts in the bucket it closes, as OTLP's explicit buckets say), the
// count, sum, min and max, and a point per attribute set.
func TestHistogram_Buckets(t *testing.T) {
	h := histogram{bounds: []float64{1, 5}}
	a := []attr{stringAttr("tool", "a")}
	for _, v := range []float64{0.5, 1, 3, 5, 7} {
		h.record(v, a)
	}
	h.record(2, []attr{stringAttr("tool", "b")})
	if len(h.points) != 2 {
		t.Fatalf("%d points, want 2 (one per attribute set)", len(h.points))
	}
	p := h.points[0]
	if !slices.Equal(p.buckets, []uint64{2, 2, 1}) || p.count != 5 || p.sum != 16.5 || p.min != 0.5 || p.max != 7 {
		t.Fatalf("point %+v, want buckets [2 2 1], count 5, sum 16.5, min 0.5, max 7", p)
	}
}

// TestCounter_Overflow checks that an instrument keeps at most maxSeries
// attribute sets, counting the rest in the overflow series.
func TestCounter_Overflow(t *testing.T) {
	var c counter
	for i := range maxSeries + 10 {
		c.add(1, stringAttr(attrRule, fmt.Sprint("r", i)))
	}
	c.add(5, stringAttr(attrRule, "r0"))
	if len(c.points) != maxSeries {
		t.Fatalf("%d series, want %d", len(c.points), maxSeries)
	}
	last := len(c.points) - 1
	if setKey(c.attrs[last]) != setKey(overflow) || c.points[last] != 11 {
		t.Fatalf("last series %v = %d, want the overflow series = 11", c.attrs[last], c.points[last])
	}
	if c.points[0] != 6 {
		t.Fatalf("r0 = %d, want 6", c.points[0])
	}
}

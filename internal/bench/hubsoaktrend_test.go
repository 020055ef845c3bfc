package main

import (
	"math"
	"net/http"
	"net/http/httptest"
	"net/http/pprof"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/hub"
)

func TestSlope(t *testing.T) {
	for _, c := range []struct {
		ys   []float64
		want float64
	}{
		{[]float64{5, 5, 5, 5}, 0},
		{[]float64{1, 3, 5, 7}, 2},
		{[]float64{10, 8, 9, 7, 8, 6}, -0.6286},
		{[]float64{4}, 0},
	} {
		xs := make([]float64, len(c.ys))
		for i := range xs {
			xs[i] = float64(i)
		}
		if got := slope(xs, c.ys); math.Abs(got-c.want) > 1e-3 {
			t.Errorf("slope(%v) = %.4f, want %.4f", c.ys, got, c.want)
		}
	}
}

func TestSoakTrend_FromSettledMinute(t *testing.T) {
	var growing, flat []soakPoint
	for m := range 20 {
		// Both fill for the first 11 minutes; then one keeps growing by
		// 2 MiB a minute and the other moves around a level.
		fill := float64(min(m, soakSettled) * 5)
		growing = append(growing, soakPoint{at: float64(m), rss: 100 + fill + float64(max(0, m-soakSettled)*2), heap: 40 + fill, ids: 5, goroutines: 900 + m})
		flat = append(flat, soakPoint{at: float64(m), rss: 150 + float64(m%2*6), heap: 60 + float64(m%3), ids: 5, goroutines: 900})
	}
	g := soakTrend(growing, soakSettled)
	if !strings.Contains(g, "RSS 155-171 MiB (+20.0 per 10 minutes, 9 samples from sample 11)") {
		t.Errorf("growing curve: %q", g)
	}
	if !strings.Contains(g, "heap after a collection 95-95 MiB (+0.0 per 10 minutes") {
		t.Errorf("growing curve's heap, flat once settled: %q", g)
	}
	if !strings.Contains(g, "goroutines 911-919 (+10.0 per 10 minutes") {
		t.Errorf("growing curve's goroutines: %q", g)
	}
	f := soakTrend(flat, soakSettled)
	if !strings.Contains(f, "RSS 150-156 MiB (+0.0 per 10 minutes") || !strings.Contains(f, "heap after a collection 60-62 MiB (-0.5 per 10 minutes") {
		t.Errorf("flat curve: %q", f)
	}
	if got := soakTrend(flat[:soakSettled+2], soakSettled); got != "" {
		t.Errorf("two samples past the window gave a trend: %q", got)
	}
}

// TestSoakTrend_HeapBesidesTheIDs tells the de-duplication ids' saw tooth,
// rising through a soak, from a heap that grows besides them.
func TestSoakTrend_HeapBesidesTheIDs(t *testing.T) {
	var tooth, leak []soakPoint
	for m := range 30 {
		ids := float64(min(m, 24))
		tooth = append(tooth, soakPoint{at: float64(m), rss: 200, heap: 80 + ids, ids: ids, goroutines: 500})
		leak = append(leak, soakPoint{at: float64(m), rss: 200, heap: 80 + float64(m), ids: 8, goroutines: 500})
	}
	g := soakTrend(tooth, soakSettled)
	for _, want := range []string{"heap after a collection 91-104 MiB (+", "of it the de-duplication ids 11-24 MiB (+", "the heap besides those ids 80-80 MiB (+0.0 per 10 minutes, 19 samples"} {
		if !strings.Contains(g, want) {
			t.Errorf("the ids' saw tooth: want %q in %q", want, g)
		}
	}
	l := soakTrend(leak, soakSettled)
	for _, want := range []string{"of it the de-duplication ids 8-8 MiB (+0.0 per 10 minutes", "the heap besides those ids 83-101 MiB (+10.0 per 10 minutes, 19 samples"} {
		if !strings.Contains(l, want) {
			t.Errorf("a leak besides the ids: want %q in %q", want, l)
		}
	}
}

// TestSoakTrend_SlopeOverTheTimeTaken reads the slope against when the
// samples were taken: a sample that comes late (its minute's probes ran
// past the minute) does not steepen it.
func TestSoakTrend_SlopeOverTheTimeTaken(t *testing.T) {
	var pts []soakPoint
	at := 0.0
	for m := range 20 {
		// 1 MiB a minute of RSS; the samples 5-9 each 2 minutes apart.
		if m >= 5 && m < 10 {
			at += 2
		} else if m > 0 {
			at++
		}
		pts = append(pts, soakPoint{at: at, rss: 100 + at, heap: 50, ids: 5, goroutines: 10})
	}
	if got := soakTrend(pts, 0); !strings.Contains(got, "RSS 100-124 MiB (+10.0 per 10 minutes, 20 samples from sample 0)") {
		t.Errorf("soakTrend = %q", got)
	}
}

func TestSoakTrend_UnreadSamplesLeftOut(t *testing.T) {
	pts := []soakPoint{{at: 0, rss: 10, heap: -1, ids: -1, goroutines: 5}, {at: 1, rss: 12, heap: -1, ids: -1, goroutines: -1}, {at: 2, rss: 14, heap: 3, ids: 1, goroutines: 5}, {at: 3, rss: 16, heap: -1, ids: -1, goroutines: 5}}
	got := soakTrend(pts, 0)
	want := "heap after a collection unread; of it the de-duplication ids unread; the heap besides those ids unread; RSS 10-16 MiB (+20.0 per 10 minutes, 4 samples from sample 0); goroutines 5-5 (+0.0 per 10 minutes, 3 samples from sample 0)"
	if got != want {
		t.Errorf("soakTrend = %q\nwant %q", got, want)
	}
}

// TestHubProc_ReadsRuntimeProfiles reads the goroutine count and the heap
// in use from Go's own profile handlers, as a hub serves them (--pprof).
func TestHubProc_ReadsRuntimeProfiles(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	srv := httptest.NewServer(mux)
	defer srv.Close()
	hp := &hubProc{cfg: &hub.Config{Name: "test"}, pprof: strings.TrimPrefix(srv.URL, "http://")}
	g, err := hp.goroutines(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if g < 2 {
		t.Errorf("goroutines = %d, want the test's and the server's at least", g)
	}
	h, ids, err := hp.heapInuse(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if h <= 0 || ids != 0 {
		t.Errorf("heap in use = %d KiB, of it de-duplication ids %d KiB (want some heap, and no ids in a process without a stream)", h, ids)
	}
}

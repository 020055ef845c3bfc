package telemetry

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// TestPoster_RetriesBusy checks that an export the collector answers 503
// is sent again, with the headers from the environment and the protobuf
// content type, and that a 400 is not.
func TestPoster_RetriesBusy(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/otlp/v1/traces" || r.Header.Get("Content-Type") != "application/x-protobuf" || r.Header.Get("X-Api-Key") != "a b" {
			t.Errorf("request %s %v", r.URL.Path, r.Header)
		}
		switch calls.Add(1) {
		case 1:
			w.Header().Set("Retry-After", "0")
			w.WriteHeader(http.StatusServiceUnavailable)
		case 3:
			w.WriteHeader(http.StatusBadRequest)
		}
	}))
	defer srv.Close()
	t.Setenv("OTEL_EXPORTER_OTLP_HEADERS", "x-api-key=a%20b, broken")
	p := newPoster(Options{Host: strings.TrimPrefix(srv.URL, "http://"), Path: "/otlp", Insecure: true}, "traces")
	if err := p.send(context.Background(), []byte{1}); err != nil {
		t.Fatalf("send after a 503: %v", err)
	}
	if got := calls.Load(); got != 2 {
		t.Fatalf("%d requests, want 2 (a 503, then the retry)", got)
	}
	if err := p.send(context.Background(), []byte{1}); err == nil || !strings.Contains(err.Error(), "400") {
		t.Fatalf("send answered 400: err %v, want the collector's 400", err)
	}
	if got := calls.Load(); got != 3 {
		t.Fatalf("%d requests, want 3 (a 400 is not retried)", got)
	}
}

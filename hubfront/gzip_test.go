package hubfront_test

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// TestHandler_Gzip: the hub's answers are gzip-compressed for a client
// that accepts it, and plain for one that does not; the stream of the
// team's changes is never compressed (it is written as it happens).
func TestHandler_Gzip(t *testing.T) {
	srv, admin := newFront(t)
	raw := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	ask := func(ctx context.Context, path, encoding string) *http.Response {
		t.Helper()
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+path, nil)
		req.Header.Set("Authorization", "Bearer "+admin)
		if encoding != "" {
			req.Header.Set("Accept-Encoding", encoding)
		}
		resp, err := raw.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}

	resp := ask(context.Background(), "/api/stats", "gzip, deflate")
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("/api/stats accepting gzip: %d, Content-Encoding %q; want 200 gzip", resp.StatusCode, resp.Header.Get("Content-Encoding"))
	}
	zr, err := gzip.NewReader(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	var st hubwire.Stats
	if err := json.NewDecoder(zr).Decode(&st); err != nil || st.Period != hubwire.PeriodDaily {
		t.Fatalf("/api/stats, gunzipped: %+v (%v), want the stats", st, err)
	}
	resp.Body.Close()

	resp = ask(context.Background(), "/api/stats", "")
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.Header.Get("Content-Encoding") != "" || json.Unmarshal(b, &st) != nil {
		t.Errorf("/api/stats without Accept-Encoding: Content-Encoding %q, want a plain JSON answer", resp.Header.Get("Content-Encoding"))
	}

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	resp = ask(ctx, "/api/team/events", "gzip")
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Encoding") != "" || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Errorf("/api/team/events accepting gzip: %d, Content-Encoding %q, Content-Type %q; want an uncompressed event stream",
			resp.StatusCode, resp.Header.Get("Content-Encoding"), resp.Header.Get("Content-Type"))
	}
}

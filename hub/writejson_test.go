package hub

import (
	"encoding/json"
	"math"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// TestWriteJSON_UnencodableAnswer: an answer that does not encode (here a
// NaN) is a 500 that says why, not a 200 with an empty body that a client
// reads as a cut-short answer.
func TestWriteJSON_UnencodableAnswer(t *testing.T) {
	rec := httptest.NewRecorder()
	writeJSON(rec, http.StatusOK, map[string]float64{"ratio": math.NaN()})
	if rec.Code != http.StatusInternalServerError {
		t.Fatalf("status %d, want 500", rec.Code)
	}
	var e hubwire.APIError
	if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil || e.Code != hubwire.CodeInternal || e.Error == "" {
		t.Fatalf("body %q (%v), want an internal error that says why", rec.Body.String(), err)
	}

	rec = httptest.NewRecorder()
	writeJSON(rec, http.StatusOK, map[string]int{"events": 3})
	var ok map[string]int
	if rec.Code != http.StatusOK || json.Unmarshal(rec.Body.Bytes(), &ok) != nil || ok["events"] != 3 {
		t.Fatalf("a plain answer: %d %q", rec.Code, rec.Body.String())
	}
}

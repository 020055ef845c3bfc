package schema

import (
	"slices"
	"testing"

	"github.com/clumsies/clumsies/mcp"
)

// TestErrorCodes pins the envelope's errorCode enum to the closed set that
// package mcp owns.
func TestErrorCodes(t *testing.T) {
	var want []string
	for _, c := range mcp.Codes() {
		want = append(want, string(c))
	}
	got := slices.Sorted(slices.Values(errorCodes))
	if !slices.Equal(got, want) {
		t.Errorf("got error codes %v, want mcp.Codes() %v", got, want)
	}
}

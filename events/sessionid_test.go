package events_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/events"
)

// TestValidSessionID pins the one rule for a session id against its
// advertised pattern.
func TestValidSessionID(t *testing.T) {
	re := regexp.MustCompile(events.SessionIDPattern)
	for _, id := range []string{
		"a", "8a1f3c2e-5b7d-4e21-9c0a-2f6b1d3e4a5c", "thread_1.2:3", strings.Repeat("x", 128),
		"", strings.Repeat("x", 129), "<script>", "../../api/overview", "a b", "a/b", "é", "a\n", "a\x00",
	} {
		if got, want := events.ValidSessionID(id), re.MatchString(id); got != want {
			t.Errorf("ValidSessionID(%q) = %v; the pattern says %v", id, got, want)
		}
	}
	for _, bad := range []string{"<script>", "../../api/overview", strings.Repeat("a", 300)} {
		if events.ValidSessionID(bad) {
			t.Errorf("ValidSessionID(%q) accepted it", bad)
		}
	}
}

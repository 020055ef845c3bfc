package hub

import (
	"maps"
	"testing"
	"time"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// TestStalledLinks checks that the link watcher re-sources exactly the
// linked nodes whose sources report a stall on flow control, with their
// current connections: not a node whose source is only behind, not a
// stalled source whose node is not linked here.
func TestStalledLinks(t *testing.T) {
	conns := map[string]uint64{"n-a": 7, "n-b": 8, "n-c": 9}
	sources := map[string]hubwire.Sourcing{
		apiPrefix("n-a"): {Lag: 1200, Active: time.Second, Stalled: true},
		apiPrefix("n-b"): {Lag: 5000, Active: 20 * time.Second}, // behind, not stalled
		apiPrefix("n-d"): {Stalled: true},                       // linked to another hub
	}
	got := stalledLinks(conns, sources)
	if want := map[string]uint64{"n-a": 7}; !maps.Equal(got, want) {
		t.Errorf("stalledLinks = %v, want %v", got, want)
	}
	if got := stalledLinks(map[string]uint64{}, sources); len(got) != 0 {
		t.Errorf("no links: stalledLinks = %v, want none", got)
	}
}

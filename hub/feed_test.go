package hub

import (
	"log/slog"
	"testing"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/hub/hubwire"
)

// feeder applies events of nodeA one at a time to projectors opened over
// one folder, numbering their ledger sequences across reopenings.
type feeder struct {
	t   *testing.T
	dir string
	seq uint64
}

func newFeeder(t *testing.T) *feeder { return &feeder{t: t, dir: t.TempDir()} }

// open opens a projector over the feeder's folder, nodeA registered.
func (f *feeder) open() *projector {
	f.t.Helper()
	nodes := func(id string) (hubwire.Node, bool) { return nodeA, id == nodeA.ID }
	p, err := openProjector(f.dir, nodes, slog.New(slog.DiscardHandler))
	if err != nil {
		f.t.Fatal(err)
	}
	return p
}

// feed applies es to p in order, as nodeA's next ledger entries.
func (f *feeder) feed(p *projector, es ...events.Event) {
	f.t.Helper()
	for _, ev := range es {
		f.seq++
		applyAll(f.t, p, sourced(nodeA, ev, f.seq))
	}
}

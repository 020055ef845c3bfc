package hub

import (
	"context"
	"maps"
	"slices"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// errCodeSourceStalled is nats-server's error code of a source whose
// consumer reports being stalled on flow control
// (JSSourceConsumerFlowControlStalledErr): the node's sourcing consumer
// has delivered its window of bytes and waits for a flow-control reply it
// did not receive. nats-server sends the reply again at each heartbeat
// and sets this error after three, but does not make the source again
// while its heartbeats arrive: the source stays stalled until it is.
const errCodeSourceStalled jetstream.ErrorCode = 10228

// stallCheckEvery is how often the link watcher reads the sources of
// its linked nodes for stalls: a stalled source is reported after three
// heartbeats of a second, so a stall costs a node's sourcing at most
// about this much more.
const stallCheckEvery = 5 * time.Second

// stalledLinks returns the linked nodes (conns: node id -> leaf
// connection id) whose sources report a stall, with their connection
// ids: the nodes to re-source.
func stalledLinks(conns map[string]uint64, sources map[string]hubwire.Sourcing) map[string]uint64 {
	out := map[string]uint64{}
	for id, cid := range conns {
		if s, ok := sources[apiPrefix(id)]; ok && s.Stalled {
			out[id] = cid
		}
	}
	return out
}

// stalled returns this hub's linked nodes whose sources are stalled on
// flow control (stalledLinks), or none when their sources cannot be
// read now (they are read again at the next check).
func (w *linkWatcher) stalled(ctx context.Context) map[string]uint64 {
	w.mu.Lock()
	conns := maps.Clone(w.conns)
	w.mu.Unlock()
	if len(conns) == 0 {
		return nil
	}
	sources, err := w.h.sources(ctx, slices.Collect(maps.Keys(conns)))
	if err != nil {
		return nil
	}
	due := stalledLinks(conns, sources)
	if len(due) > 0 {
		w.h.logger.Info("re-sourcing nodes whose sources stalled on flow control", "nodes", len(due))
	}
	return due
}

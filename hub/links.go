package hub

import (
	"context"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats-server/v2/server"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// How the link watcher polls and debounces.
const (
	// linkPoll is how often the leaf links are looked at.
	linkPoll = 100 * time.Millisecond
	// kickAfter is how long a new link must stay up before its node is
	// re-sourced: a link that flaps is kicked once it holds.
	kickAfter = 200 * time.Millisecond
)

// linkWatcher follows the leaf links. When a node's link comes up it
// re-sources the node (Hub.kick), debounced per node; sourcing then
// resumes in about a second instead of after the source's retry backoff.
// A kick the node's source does not answer is made again (kickConfirms),
// and so is a node whose source stalled on flow control while its link
// stayed up (sourcestall.go).
type linkWatcher struct {
	h *Hub

	mu    sync.Mutex
	conns map[string]uint64 // node id -> leaf connection id
	links map[string]hubwire.Link
	kicks map[string]uint64 // node id -> the connection last kicked for
}

func newLinkWatcher(h *Hub) *linkWatcher {
	return &linkWatcher{h: h, conns: map[string]uint64{}, links: map[string]hubwire.Link{}, kicks: map[string]uint64{}}
}

func (w *linkWatcher) run(ctx context.Context) {
	t := time.NewTicker(linkPoll)
	defer t.Stop()
	pending := map[string]time.Time{} // node id -> when its current link was seen first
	confirms := newKickConfirms()
	var stallChecked time.Time
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		now := time.Now()
		due := map[string]uint64{}
		for id, cid := range w.poll(now, pending) {
			if now.Sub(pending[id]) >= kickAfter {
				due[id] = cid
			}
		}
		if confirms.due(now) {
			maps.Copy(due, w.unanswered(ctx, confirms))
		}
		if now.Sub(stallChecked) >= stallCheckEvery {
			stallChecked = now
			maps.Copy(due, w.stalled(ctx))
		}
		if len(due) == 0 {
			continue
		}
		ids := make([]string, 0, len(due))
		for id := range due {
			ids = append(ids, id)
			delete(pending, id)
		}
		if err := w.h.kick(ctx, ids...); err != nil {
			if ctx.Err() == nil {
				w.h.logger.Warn("re-source nodes whose links came up", "nodes", len(ids), "err", err)
			}
			continue
		}
		w.mu.Lock()
		for id, cid := range due {
			w.kicks[id] = cid
		}
		w.mu.Unlock()
		confirms.kicked(due, time.Now())
	}
}

// unanswered returns the kicked nodes whose sources have not heard from
// them since (kickConfirms), to be kicked again.
func (w *linkWatcher) unanswered(ctx context.Context, confirms *kickConfirms) map[string]uint64 {
	asked := time.Now()
	sources, err := w.h.sources(ctx, slices.Collect(maps.Keys(confirms.waiting)))
	if err != nil {
		confirms.checked = asked // asked again at the next check
		return nil
	}
	return confirms.check(asked, sources, func(id string) uint64 {
		w.mu.Lock()
		defer w.mu.Unlock()
		return w.conns[id]
	})
}

// poll reads the leaf links and returns the nodes whose current link has
// not been kicked for yet, with their connection ids; pending records when
// each such link was first seen.
func (w *linkWatcher) poll(now time.Time, pending map[string]time.Time) map[string]uint64 {
	lz, err := w.h.ns.Leafz(&server.LeafzOptions{})
	if err != nil {
		return nil
	}
	seen := map[string]uint64{}
	for _, l := range lz.Leafs {
		if id, ok := strings.CutPrefix(l.Account, "N_"); ok {
			seen[id] = l.ID
		}
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	due := map[string]uint64{}
	for id, cid := range seen {
		if w.conns[id] != cid {
			w.conns[id] = cid
			w.links[id] = hubwire.Link{Up: true, Since: now}
			pending[id] = now
		}
		if w.kicks[id] != cid {
			due[id] = cid
		}
	}
	for id := range w.conns {
		if _, ok := seen[id]; !ok {
			delete(w.conns, id)
			delete(pending, id)
			w.links[id] = hubwire.Link{Up: false, Since: now}
		}
	}
	return due
}

// link returns what is known about node id's link.
func (w *linkWatcher) link(id string) hubwire.Link {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.links[id]
}

// Link returns the state of node id's leaf link.
func (h *Hub) Link(id string) hubwire.Link { return h.links.link(id) }

package hublink

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// Mirror is the workspace's copy of its team's catalog. Open it once in
// the process that owns the workspace, and Close it when done.
type Mirror struct {
	team   string
	js     jetstream.JetStream
	cfg    jetstream.KeyValueConfig
	logger *slog.Logger

	mu      sync.RWMutex
	kv      jetstream.KeyValue               // replaced by Kick
	objs    map[string]hubwire.CatalogObject // by id
	rev     uint64                           // the last revision applied
	changed chan struct{}                    // closed and replaced on every change

	rewatch chan struct{} // a kick made the bucket again
	onKick  func(context.Context) error
	stop    context.CancelFunc
	done    chan struct{}
}

// OpenMirror creates the mirror of team's catalog in the server js talks to (the
// server of node nodeID, linked to the hub), or opens the one there, and
// follows it: what it already holds is served at once, whether the hub is
// reachable or not.
func OpenMirror(ctx context.Context, js jetstream.JetStream, nodeID, team string, logger *slog.Logger) (*Mirror, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	cfg := MirrorConfig(nodeID, team)
	kv, err := js.CreateOrUpdateKeyValue(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("open the mirror of team %s's catalog: %w", team, err)
	}
	m := &Mirror{team: team, js: js, cfg: cfg, kv: kv, logger: logger, objs: map[string]hubwire.CatalogObject{}, changed: make(chan struct{}), rewatch: make(chan struct{}, 1), done: make(chan struct{})}
	// The watch lives as long as the mirror is followed (nats.go ends it
	// with the context it was made with).
	wctx, stop := context.WithCancel(context.Background())
	w, err := kv.WatchAll(wctx)
	if err != nil {
		stop()
		return nil, fmt.Errorf("read the mirror of team %s's catalog: %w", team, err)
	}
	// The watch first gives every entry the mirror holds, then nil.
	for e := range w.Updates() {
		if e == nil {
			break
		}
		m.apply(e)
	}
	m.stop = stop
	go m.follow(wctx, w)
	return m, nil
}

// MirrorConfig is the key-value configuration of the mirror of team's catalog
// in node nodeID's server: the hub's bucket, pulled through the hub's
// JetStream domain and delivered on the node's own prefix.
func MirrorConfig(nodeID, team string) jetstream.KeyValueConfig {
	return jetstream.KeyValueConfig{
		Bucket:      hubwire.CatalogBucket(team),
		Description: "clumsies: mirror of team " + team + "'s catalog at the hub",
		History:     1,
		Storage:     jetstream.FileStorage,
		Mirror: &jetstream.StreamSource{
			Name: hubwire.CatalogStream(team),
			External: &jetstream.ExternalStream{
				APIPrefix:     hubwire.APIPrefix,
				DeliverPrefix: hubwire.CatalogDeliverPrefix(nodeID),
			},
		},
	}
}

// follow applies the mirror's changes until ctx ends; a watch that ends,
// or whose bucket a kick made again, is opened again after the last
// revision applied.
func (m *Mirror) follow(ctx context.Context, w jetstream.KeyWatcher) {
	defer close(m.done)
	for {
		m.drain(ctx, w)
		w.Stop()
		if ctx.Err() != nil {
			return
		}
		for {
			var err error
			if w, err = m.bucket().WatchAll(ctx, jetstream.ResumeFromRevision(m.Revision()+1)); err == nil {
				break
			}
			m.logger.Warn("watch the team catalog's mirror again", "team", m.team, "err", err)
			select {
			case <-ctx.Done():
				return
			case <-time.After(time.Second):
			}
		}
	}
}

// drain applies what w gives until it ends, ctx ends or the mirror was
// kicked.
func (m *Mirror) drain(ctx context.Context, w jetstream.KeyWatcher) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-m.rewatch:
			return
		case e, ok := <-w.Updates():
			if !ok {
				return
			}
			if e != nil {
				m.apply(e)
			}
		}
	}
}

// bucket returns the mirror's bucket.
func (m *Mirror) bucket() jetstream.KeyValue {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.kv
}

// apply lays one entry of the mirror over the view.
func (m *Mirror) apply(e jetstream.KeyValueEntry) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if e.Revision() <= m.rev {
		return
	}
	m.rev = e.Revision()
	if e.Operation() != jetstream.KeyValuePut {
		delete(m.objs, e.Key())
	} else if o, err := hubwire.DecodeCatalogEntry(e.Value(), e.Revision()); err != nil {
		m.logger.Warn("skipped an unreadable entry of the team catalog", "key", e.Key(), "err", err)
	} else {
		m.objs[o.ID] = o
	}
	close(m.changed)
	m.changed = make(chan struct{})
}

// Team returns the team whose catalog this is.
func (m *Mirror) Team() string { return m.team }

// Revision returns the catalog revision the view has reached: the hub's
// revision of the last change it applied.
func (m *Mirror) Revision() uint64 {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.rev
}

// Get returns the object id with its body, false if the catalog has none.
func (m *Mirror) Get(id string) (hubwire.CatalogObject, bool) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	o, ok := m.objs[id]
	return o, ok
}

// Objects returns every object, without bodies, ordered by path.
func (m *Mirror) Objects() []hubwire.CatalogObject {
	m.mu.RLock()
	out := make([]hubwire.CatalogObject, 0, len(m.objs))
	for _, o := range m.objs {
		o.Body = ""
		out = append(out, o)
	}
	m.mu.RUnlock()
	slices.SortFunc(out, func(a, b hubwire.CatalogObject) int { return strings.Compare(a.Path, b.Path) })
	return out
}

// WaitRevision waits until the view has reached revision rev or ctx ends.
func (m *Mirror) WaitRevision(ctx context.Context, rev uint64) error {
	for {
		m.mu.RLock()
		have, ch := m.rev, m.changed
		m.mu.RUnlock()
		if have >= rev {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("wait for revision %d of the team catalog (have %d): %w", rev, have, ctx.Err())
		case <-ch:
		}
	}
}

// Close stops following the mirror; the mirror itself stays in the
// workspace's server. A second Close returns an error.
func (m *Mirror) Close() error {
	if m.stop == nil {
		return errors.New("hublink: the team catalog's mirror is closed already")
	}
	m.stop()
	m.stop = nil
	<-m.done
	return nil
}

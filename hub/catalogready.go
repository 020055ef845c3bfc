package hub

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// How a team's catalog is made and waited for.
const (
	// catalogWait bounds how long an invite or a join waits for its
	// team's catalog; past it, or once an attempt failed, it goes on and
	// the catalog is made later (the node's mirror retries until then).
	catalogWait = 15 * time.Second
	// catalogPollMin and catalogPollMax bound the pause between two
	// looks for a catalog another hub makes.
	catalogPollMin = 50 * time.Millisecond
	catalogPollMax = 250 * time.Millisecond
	// catalogRetryMax is the longest pause before a failed creation is
	// tried again.
	catalogRetryMax = 5 * time.Second
)

// errCatalogElsewhere means a team's catalog is not made yet and another
// hub of the cluster, the writer, makes it.
var errCatalogElsewhere = errors.New("the catalog is made by the cluster's writer")

// catalogMaker makes each team's catalog bucket, empty until its first
// push, as soon as the hub hears of the team: an invite for it, the
// registry's nodes and invites at start and at every change of the
// registry (an invite made at another hub of the cluster). A node
// mirrors its team's bucket from the time it links, and a bucket that
// exists is mirrored at once, where a mirror of a bucket not made yet
// waits out its retry backoff (seconds) before it sees the first push.
//
// There is one making per team in a hub, in the background: an invite
// or a join that finds it under way waits for it (wait). Across a
// cluster only the writer (writesSources: the aggregate's leader, or a
// hub alone) creates a bucket; the other hubs look for it until it is
// there (and create it themselves only if it is still missing after
// catalogWait), so that a new team's catalog is created once, where every hub
// used to make it at the team's first join it served (an update of the
// stream, through the cluster's meta leader, when another hub had made
// it; seconds in a cluster busy with joins). The creation never updates
// a stream already there: a stream of the catalog's name that is not the
// catalog is reported, in the health, and left as it is. A creation that
// fails is tried again, with a growing pause, until it succeeds or the
// hub stops. A writer that changes while it creates may leave the new
// writer to send the same creation, which JetStream answers with the
// stream made.
type catalogMaker struct {
	// open looks a team's bucket up: jetstream.ErrBucketNotFound when
	// there is none. create creates it, failing if a stream of its name
	// is there. writer reports whether this hub creates buckets.
	open   func(ctx context.Context, team string) error
	create func(ctx context.Context, team string) error
	writer func() bool
	warn   func(msg string, args ...any)

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu    sync.Mutex
	teams map[string]*catalogMaking
	made  uint64 // buckets this hub created
}

// catalogMaking is one team's making: ready is closed once the bucket is
// there, failing at its first failed attempt; err, attempts and since
// describe the failures, under the maker's mu.
type catalogMaking struct {
	ready    chan struct{}
	failing  chan struct{}
	err      error
	attempts int
	since    time.Time
}

func newCatalogMaker(h *Hub) *catalogMaker {
	m := &catalogMaker{
		open: func(ctx context.Context, team string) error {
			_, err := h.catalogKV(ctx, team, false)
			return err
		},
		create: func(ctx context.Context, team string) error {
			_, err := h.js.CreateKeyValue(ctx, catalogConfig(team, h.cfg.Replicas()))
			return err
		},
		writer: h.writesSources,
		warn:   h.logger.Warn,
		teams:  map[string]*catalogMaking{},
	}
	m.ctx, m.cancel = context.WithCancel(context.Background())
	return m
}

// start begins the making of each team's catalog not begun yet, and
// returns the making of the last.
func (m *catalogMaker) start(teams ...string) *catalogMaking {
	m.mu.Lock()
	defer m.mu.Unlock()
	var last *catalogMaking
	for _, team := range teams {
		if last = m.teams[team]; last != nil {
			continue
		}
		mk := &catalogMaking{ready: make(chan struct{}), failing: make(chan struct{})}
		m.teams[team], last = mk, mk
		m.wg.Add(1)
		go func() {
			defer m.wg.Done()
			m.make(team, mk)
		}()
	}
	return last
}

// wait returns once team's catalog is there, an attempt to make it
// failed, catalogWait passed or ctx ended, whichever comes first, and
// says whether the catalog is there. It begins the making if needed.
func (m *catalogMaker) wait(ctx context.Context, team string) bool {
	mk := m.start(team)
	t := time.NewTimer(catalogWait)
	defer t.Stop()
	select {
	case <-mk.ready:
		return true
	case <-mk.failing:
	case <-t.C:
	case <-ctx.Done():
	}
	select {
	case <-mk.ready:
		return true
	default:
		return false
	}
}

// make makes team's catalog, or waits for the writer to, until it is
// there or the maker is closed.
func (m *catalogMaker) make(team string, mk *catalogMaking) {
	pause := catalogPollMin
	begun := time.Now()
	for {
		err := m.once(team, time.Since(begun) < catalogWait)
		if err == nil {
			m.mu.Lock()
			mk.err = nil
			m.mu.Unlock()
			close(mk.ready)
			return
		}
		if m.ctx.Err() != nil {
			return
		}
		most := catalogPollMax
		if !errors.Is(err, errCatalogElsewhere) {
			most = catalogRetryMax
			m.failed(team, mk, err)
		}
		pause = min(pause, most)
		select {
		case <-m.ctx.Done():
			return
		case <-time.After(pause):
		}
		pause = min(2*pause, most)
	}
}

// once looks for team's catalog and, missing, creates it at the writer,
// or at any hub once the writer had catalogWait to do it (the writer has
// not heard of the team: a hub of an older version, say).
func (m *catalogMaker) once(team string, leaveToWriter bool) error {
	err := m.open(m.ctx, team)
	if !errors.Is(err, ErrNotFound) {
		return err
	}
	if leaveToWriter && !m.writer() {
		return errCatalogElsewhere
	}
	err = retryUnanswered(m.ctx, func(ctx context.Context) error { return m.create(ctx, team) })
	if err != nil {
		return fmt.Errorf("create the catalog of team %s: %w", team, err)
	}
	m.mu.Lock()
	m.made++
	m.mu.Unlock()
	return nil
}

// failed records a failed attempt at team's catalog.
func (m *catalogMaker) failed(team string, mk *catalogMaking, err error) {
	m.mu.Lock()
	if mk.err == nil {
		mk.since = time.Now()
	}
	mk.err = err
	mk.attempts++
	if mk.attempts == 1 {
		close(mk.failing)
	}
	m.mu.Unlock()
	m.warn("the team's catalog is not made yet; trying again", "team", team, "err", err)
}

// health returns how many buckets this hub created, and the teams whose
// catalog it failed to make so far, by team.
func (m *catalogMaker) health() (uint64, []hubwire.CatalogHealth) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []hubwire.CatalogHealth
	for team, mk := range m.teams {
		if mk.err != nil {
			out = append(out, hubwire.CatalogHealth{Team: team, Error: mk.err.Error(), Attempts: mk.attempts, Since: mk.since})
		}
	}
	slices.SortFunc(out, func(a, b hubwire.CatalogHealth) int { return strings.Compare(a.Team, b.Team) })
	return m.made, out
}

// close stops the makings under way and waits for them.
func (m *catalogMaker) close() {
	m.cancel()
	m.wg.Wait()
}

// catalogConfig is the configuration of team's catalog bucket.
func catalogConfig(team string, replicas int) jetstream.KeyValueConfig {
	return jetstream.KeyValueConfig{
		Bucket: hubwire.CatalogBucket(team), Description: "clumsies hub: the catalog of team " + team,
		History: catalogHistory, Storage: jetstream.FileStorage, Replicas: replicas,
		MaxValueSize: maxPayload - 64<<10,
	}
}

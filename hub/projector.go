package hub

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/cockroachdb/pebble/v2"
	"github.com/nats-io/nats.go"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/events/natsjs"
	"github.com/clumsies/clumsies/hub/hubwire"
	"github.com/clumsies/clumsies/projections/engine"
)

// projectorBatch bounds the messages applied in one pebble batch.
const projectorBatch = 1000

// projector keeps the hub's read models: it follows the aggregate in
// order and counts every event once per team, workspace, node, member,
// day, metric, rule and constraint.
//
// Apply is deterministic: the same aggregate gives the same rows. It
// de-duplicates by event id (the aggregate's own de-duplication is bound to
// its window) and refuses a message unless its subject, the source header
// the hub wrote and its envelope agree on the workspace and the node, so
// that a node cannot pass off events as another's. The checkpoint is
// written in the same batch as the rows.
type projector struct {
	db     *pebble.DB
	nodes  func(id string) (hubwire.Node, bool)
	logger *slog.Logger

	// st is the registry of the read models; only apply uses it.
	st        *hubState
	committer engine.Committer[*hubItem, *hubState]
	// reviews is the review queue, a read model of st that serves reads.
	reviews *reviewQueue
	// folded holds the types whose payload a model of st folds (folder).
	folded map[events.Type]bool

	// progress is the last aggregate sequence applied.
	progress engine.Progress
	// caches keep the stats answers at the latest checkpoint (statscaches.go).
	caches statsCaches

	// shards reads the shard copies of the messages the aggregate
	// sourced from its shards (shardcopy.go); copies holds those of the
	// batch being applied.
	shards *shardReader
	copies map[shardRef]shardCopy
	// lostCopies counts the messages of the batch whose shard copy is
	// lost, counted without their sequence in their node's ledger.
	lostCopies int

	mu sync.Mutex
	// changed, when set, learns the teams of every committed batch.
	changed func(teams ...string)
}

func openProjector(dir string, nodes func(string) (hubwire.Node, bool), logger *slog.Logger) (*projector, error) {
	db, err := pebble.Open(dir, &pebble.Options{Logger: quietPebble{}})
	if err != nil {
		return nil, fmt.Errorf("open the hub's read models: %w", err)
	}
	p := &projector{db: db, nodes: nodes, logger: logger, reviews: newReviewQueue()}
	p.committer = engine.Committer[*hubItem, *hubState]{DB: db, Load: func(db *pebble.DB) (*hubState, error) {
		return loadHubState(db, nodes, p.reviews)
	}}
	if p.st, err = p.committer.Load(db); err != nil {
		db.Close()
		return nil, err
	}
	if p.st.checkpoint > 0 && p.st.layout < hubLayout {
		// Filled by an older hub: apply the aggregate again.
		logger.Warn("the hub's read models predate this version: applying the aggregate again", "dir", dir)
		if err := db.Close(); err != nil {
			return nil, fmt.Errorf("open the hub's read models: %w", err)
		}
		if err := os.RemoveAll(dir); err != nil {
			return nil, fmt.Errorf("remove the hub's older read models: %w", err)
		}
		return openProjector(dir, nodes, logger)
	}
	p.progress.Set(p.st.checkpoint)
	p.folded = p.st.folded()
	return p, nil
}

// Applied returns the last aggregate sequence applied.
func (p *projector) Applied() uint64 { return p.progress.Seq() }

// projectorRetry is the wait before the projector follows the aggregate
// again after a failure: a read that failed, or a message of a node this
// hub's copy of the registry does not hold yet.
var projectorRetry = engine.Backoff{Min: time.Second, Max: 4 * time.Second}

// How the projector notices a consumer that stopped delivering (see
// engine.Stall): in a cluster, a consumer whose stream leader was killed
// can stay silent for minutes while the new leader serves messages (seen
// under load after a SIGKILL of the leader); a new consumer is served at
// once.
const (
	stallCheck = 2 * time.Second
	stallAfter = 6 * time.Second
)

// run follows the aggregate from the checkpoint until ctx ends, on the
// engine's runner: batches of up to projectorBatch messages, each
// committed as soon as the aggregate has nothing more to give right now;
// after a failure, or when the aggregate stops being delivered, it
// follows again with a new consumer.
func (p *projector) run(ctx context.Context, nc *nats.Conn) {
	r := engine.Runner[natsjs.Message]{
		Seq:       func(m natsjs.Message) uint64 { return m.Seq },
		Apply:     p.apply,
		Progress:  &p.progress,
		BatchSize: projectorBatch,
		Retry:     &projectorRetry,
		OnRetry: func(err error, wait time.Duration) {
			p.logger.Warn("hub projector: following the aggregate failed; retrying", "err", err, "in", wait)
		},
		Stall: &engine.Stall{Check: stallCheck, After: stallAfter},
	}
	r.Run(ctx, aggregateSource{nc})
}

// aggregateSource is the aggregate as the runner's source: it binds the
// stream anew for every read, so that a follow after a failure starts
// from a fresh binding (and one that failed, before the stream exists,
// is tried again).
type aggregateSource struct{ nc *nats.Conn }

func (a aggregateSource) open(ctx context.Context) (*natsjs.Source, error) {
	src, err := natsjs.OpenSource(ctx, a.nc, hubwire.AggregateStream, natsjs.Options{})
	if err != nil {
		return nil, fmt.Errorf("bind the aggregate: %w", err)
	}
	return src, nil
}

func (a aggregateSource) LastSeq(ctx context.Context) (uint64, error) {
	src, err := a.open(ctx)
	if err != nil {
		return 0, err
	}
	return src.LastSeq(ctx)
}

func (a aggregateSource) Subscribe(ctx context.Context, from uint64, fn func(natsjs.Message) error) error {
	src, err := a.open(ctx)
	if err != nil {
		return err
	}
	if err := src.Subscribe(ctx, from, fn); err != nil {
		return fmt.Errorf("follow the aggregate: %w", err)
	}
	return nil
}

// apply hands msgs to the read models and commits their rows and the
// checkpoint in one batch. On an error nothing of the batch is kept: the
// models are loaded again from what the store holds.
func (p *projector) apply(msgs []natsjs.Message) error {
	st := p.st
	if p.shards != nil {
		copies, err := p.shards.copies(msgs)
		if err != nil {
			return fmt.Errorf("read the shard copies of the aggregate's messages: %w", err)
		}
		p.copies = copies
	}
	p.lostCopies = 0
	defer func() {
		if p.lostCopies > 0 {
			p.logger.Warn("hub projector: counted messages whose copy their shard no longer holds (a shard made again), without their sequence in their node's ledger", "messages", p.lostCopies)
		}
	}()
	var bad uint64
	for _, msg := range msgs {
		if msg.Seq <= st.checkpoint {
			continue
		}
		it, err := p.decode(msg)
		if errors.Is(err, errNodeNotYetKnown) {
			return errors.Join(err, p.reload()) // nothing of this batch is committed; it is applied again
		}
		if err != nil {
			bad++
			p.logger.Warn("hub projector: refused a message of the aggregate", "seq", msg.Seq, "subject", msg.Subject, "err", err)
		}
		if it != nil {
			st.reg.Apply(it)
		}
		st.checkpoint = msg.Seq
	}
	if st.checkpoint == p.Applied() {
		return nil
	}
	st.bad += bad
	stale := st.stale() // the commit forgets it
	next, err := p.committer.Commit(st, nil, nil)
	p.st = next
	if err != nil {
		return fmt.Errorf("commit the hub's read models: %w", err)
	}
	// The answers kept at the older checkpoint go before a reader can
	// see the newer one.
	p.caches.moved(st.checkpoint, stale)
	p.progress.Advance(st.checkpoint)
	p.mu.Lock()
	changed := p.changed
	p.mu.Unlock()
	if changed != nil {
		changed(batchTeams(msgs)...)
	}
	return nil
}

// reload throws the models' state away and loads it again from the store.
func (p *projector) reload() error {
	st, err := p.committer.Reload()
	if err != nil {
		return err
	}
	p.st = st
	return nil
}

// batchTeams returns the teams whose subjects msgs hold.
func batchTeams(msgs []natsjs.Message) []string {
	var teams []string
	for _, m := range msgs {
		if team, _, _, _, ok := splitSubject(m.Subject); ok && !slices.Contains(teams, team) {
			teams = append(teams, team)
		}
	}
	return teams
}

// errForged marks a message whose subject, source header and envelope
// disagree.
var errForged = errors.New("hub: subject, source and envelope disagree")

// errNodeNotYetKnown means a message names a node this hub's copy of the
// registry does not hold yet. The aggregate's subjects are written by the
// hub from its sources, so the node is registered: in a cluster, the copy
// lags the hub that took the join. The projector waits for it.
var errNodeNotYetKnown = errors.New("hub: node not in this hub's registry yet")

// decode checks one message and decodes its event for the models. It
// returns an error for a message it refuses; with an item too when only
// its payload does not decode (the models then take what does not need
// it).
func (p *projector) decode(msg natsjs.Message) (*hubItem, error) {
	team, ws, nodeID, typ, ok := splitSubject(msg.Subject)
	if !ok {
		return nil, fmt.Errorf("%w: subject %q", errForged, msg.Subject)
	}
	n, known := p.nodes(nodeID)
	if !known {
		return nil, fmt.Errorf("%w: %s", errNodeNotYetKnown, nodeID)
	}
	if n.Team != team || n.Workspace != ws {
		return nil, fmt.Errorf("%w: node %s is not of team %s, workspace %s", errForged, nodeID, team, ws)
	}
	origin, err := p.origin(msg, n, typ)
	if err != nil {
		return nil, err
	}
	ev, err := events.Decode(msg.Data)
	if err != nil {
		return nil, err
	}
	if ev.WorkspaceID != ws || string(ev.Type) != typ || ev.ID != msg.Header.Get(nats.MsgIdHdr) {
		return nil, fmt.Errorf("%w: envelope of %s says workspace %s, type %s", errForged, ev.ID, ev.WorkspaceID, ev.Type)
	}
	it := &hubItem{node: n, origin: origin, seq: msg.Seq, data: msg.Data, ev: &ev, dup: p.st.seen.has(ev.ID)}
	if it.dup || ev.Outcome != events.OutcomeOK || !p.folded[ev.Type] {
		return it, nil
	}
	if it.payload, err = ev.Payload(); err != nil {
		it.payload = nil
		return it, fmt.Errorf("decode the payload of %s: %w", ev.ID, err)
	}
	return it, nil
}

// folder is a model that reads the payloads of events: Folds names the
// types whose payload its Apply reads (a model that reads none need not
// implement it). TestFolds_Declared fails for a model whose rows depend
// on a payload of a type it does not name.
type folder interface {
	Folds() []events.Type
}

// splitSubject reads hub.<team>.<ws>.<node>.<type>.
func splitSubject(s string) (team, ws, node, typ string, ok bool) {
	p := strings.SplitN(s, ".", 5)
	if len(p) != 5 || p[0] != hubwire.SubjectPrefix {
		return "", "", "", "", false
	}
	return p[1], p[2], p[3], p[4], true
}

// checkSource checks the Nats-Stream-Source header the aggregate wrote:
// "<stream>:<hash> <seq> <filter> <destination> <original subject>"
// (nats-server may add fields after these). The filter and destination
// are node n's, and the original subject is its workspace's subject for
// typ. It returns the sequence of the message in the node's ledger.
func checkSource(h string, n hubwire.Node, typ string) (uint64, error) {
	f := strings.Split(h, " ")
	if len(f) < 5 || !strings.HasPrefix(f[0], ledgerStream(n.Workspace)+":") ||
		f[2] != ledgerSubjects(n.Workspace) || f[3] != nodeSubjects(n) ||
		f[4] != "clumsies."+n.Workspace+"."+typ {
		return 0, fmt.Errorf("%w: source header %q is not node %s's", errForged, h, n.ID)
	}
	seq, err := strconv.ParseUint(f[1], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%w: source header %q has no sequence", errForged, h)
	}
	return seq, nil
}

// origin checks the source of msg, of node n, and returns its sequence
// in the node's ledger. A message sourced from a shard is checked by its
// copy in the shard (shardcopy.go): the shard must be the node's and the
// copy's subject the message's; the copy's header is then checked as a
// message sourced from the node directly (a hub before the shards).
//
// A copy the shard no longer holds (a shard lost and made again holds
// other messages, or none, at the sequences the aggregate names) is not
// waited for: the message is counted from the aggregate's own copy,
// whose subject only the node's source in the node's shard writes (the
// hub's subject transform), with its sequence in the node's ledger
// unknown (0): the node's chain and last sequence skip it (shardlost.go).
func (p *projector) origin(msg natsjs.Message, n hubwire.Node, typ string) (uint64, error) {
	h := msg.Header.Get(streamSourceHeader)
	ref, ok := shardRefOf(h)
	if !ok {
		return checkSource(h, n, typ)
	}
	if n.Shard == 0 {
		// Moved to its shard at another hub of the cluster: this hub's
		// copy of the registry does not say so yet.
		return 0, fmt.Errorf("%w: %s's shard", errNodeNotYetKnown, n.ID)
	}
	if ref.shard != n.Shard {
		return 0, fmt.Errorf("%w: source header %q is not node %s's shard's (shard %d)", errForged, h, n.ID, n.Shard)
	}
	c, found := p.copies[ref]
	if !found || c.msgID != msg.Header.Get(nats.MsgIdHdr) {
		p.lostCopies++
		return 0, nil
	}
	if c.subject != msg.Subject {
		return 0, fmt.Errorf("%w: the copy of %s in shard %d has subject %q, not %q", errForged, c.msgID, n.Shard, c.subject, msg.Subject)
	}
	return checkSource(c.header, n, typ)
}

// nodeSeq returns the last sequence of node id's ledger the hub has applied.
func (p *projector) nodeSeq(id string) (uint64, error) {
	v, closer, err := p.db.Get(keyNodeSeq(id))
	if errors.Is(err, pebble.ErrNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	defer closer.Close()
	return getUint(v), nil
}

func (p *projector) close() error { return p.db.Close() }

// quietPebble drops pebble's informational messages.
type quietPebble struct{}

func (quietPebble) Infof(string, ...any)  {}
func (quietPebble) Errorf(string, ...any) {}
func (quietPebble) Fatalf(format string, args ...any) {
	panic(fmt.Sprintf(format, args...))
}

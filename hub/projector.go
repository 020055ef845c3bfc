package hub

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/cockroachdb/pebble/v2"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/evidence"
	"github.com/clumsies/clumsies/hub/hubwire"
	"github.com/clumsies/clumsies/ledger"
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

	// checkers hold the chains of the nodes of the batch being
	// applied, written once at its end.
	checkers map[string]*ledger.Checker

	mu      sync.Mutex
	applied uint64

	// changed, when set, learns the teams of every committed batch.
	changed func(teams ...string)
}

func openProjector(dir string, nodes func(string) (hubwire.Node, bool), logger *slog.Logger) (*projector, error) {
	db, err := pebble.Open(dir, &pebble.Options{Logger: quietPebble{}})
	if err != nil {
		return nil, fmt.Errorf("open the hub's read models: %w", err)
	}
	p := &projector{db: db, nodes: nodes, logger: logger}
	v, closer, err := db.Get(keyCheckpoint)
	if err == nil {
		p.applied = getUint(v)
		closer.Close()
	} else if !errors.Is(err, pebble.ErrNotFound) {
		db.Close()
		return nil, fmt.Errorf("read the hub's checkpoint: %w", err)
	}
	return p, nil
}

// Applied returns the last aggregate sequence applied.
func (p *projector) Applied() uint64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.applied
}

// run follows the aggregate from the checkpoint until ctx ends.
func (p *projector) run(ctx context.Context, js jetstream.JetStream) error {
	for {
		err := p.follow(ctx, js)
		if ctx.Err() != nil {
			return nil
		}
		p.logger.Warn("hub projector: following the aggregate failed; retrying", "err", err)
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(time.Second):
		}
	}
}

func (p *projector) follow(ctx context.Context, js jetstream.JetStream) error {
	st, err := js.Stream(ctx, hubwire.AggregateStream)
	if err != nil {
		return fmt.Errorf("bind the aggregate: %w", err)
	}
	cons, err := st.OrderedConsumer(ctx, jetstream.OrderedConsumerConfig{
		DeliverPolicy: jetstream.DeliverByStartSequencePolicy, OptStartSeq: p.Applied() + 1,
	})
	if err != nil {
		return fmt.Errorf("follow the aggregate: %w", err)
	}
	it, err := cons.Messages(jetstream.PullMaxMessages(projectorBatch))
	if err != nil {
		return fmt.Errorf("follow the aggregate: %w", err)
	}
	defer it.Stop()
	stop := context.AfterFunc(ctx, it.Stop)
	defer stop()
	wctx, endWatch := context.WithCancel(ctx)
	defer endWatch()
	stalled := make(chan uint64, 1)
	go p.watchStall(wctx, st, it.Stop, stalled)
	var batch []entry
	for {
		msg, err := it.Next()
		if err != nil {
			select {
			case last := <-stalled:
				return fmt.Errorf("follow the aggregate: no progress for %s at seq %d while the aggregate holds %d; following again", stallAfter, p.Applied(), last)
			default:
			}
			return err
		}
		md, err := msg.Metadata()
		if err != nil {
			return err
		}
		batch = append(batch, entry{seq: md.Sequence.Stream, subject: msg.Subject(), hdr: msg.Headers(), data: msg.Data()})
		if len(batch) >= projectorBatch || md.NumPending == 0 {
			if err := p.apply(batch); err != nil {
				return err
			}
			batch = batch[:0]
		}
	}
}

// How the projector notices a consumer that stopped delivering.
const (
	stallCheck = 2 * time.Second
	stallAfter = 6 * time.Second
)

// watchStall stops the consumer (stop) when the aggregate holds messages
// the projector has not applied and it applied none for stallAfter, until
// ctx ends; the projector then follows again with a new consumer. In a
// cluster, a consumer whose stream leader was killed can stay silent for
// minutes while the new leader serves messages (seen under load after a
// SIGKILL of the leader); a new consumer is served at once.
func (p *projector) watchStall(ctx context.Context, st jetstream.Stream, stop func(), stalled chan<- uint64) {
	t := time.NewTicker(stallCheck)
	defer t.Stop()
	applied, since := p.Applied(), time.Now()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if now := p.Applied(); now != applied {
			applied, since = now, time.Now()
			continue
		}
		if time.Since(since) < stallAfter {
			continue
		}
		ictx, cancel := context.WithTimeout(ctx, stallCheck)
		info, err := st.Info(ictx)
		cancel()
		if err != nil || info.State.LastSeq <= applied {
			since = time.Now() // nothing to apply, or no leader to ask yet
			continue
		}
		stalled <- info.State.LastSeq
		stop()
		return
	}
}

// entry is one message of the aggregate.
type entry struct {
	seq     uint64
	subject string
	hdr     nats.Header
	data    []byte
}

// apply writes the rows of msgs and the checkpoint in one batch.
func (p *projector) apply(msgs []entry) error {
	b := p.db.NewIndexedBatch()
	defer b.Close()
	counts := map[counter]uint64{}
	seqs := map[string]uint64{} // node id -> last ledger sequence seen
	p.checkers = map[string]*ledger.Checker{}
	var last uint64
	var bad uint64
	for _, msg := range msgs {
		last = msg.seq
		if err := p.applyOne(b, counts, seqs, msg.subject, msg.hdr, msg.data); err != nil {
			if errors.Is(err, errNodeNotYetKnown) {
				return err // nothing of this batch is committed; it is applied again
			}
			bad++
			p.logger.Warn("hub projector: refused a message of the aggregate", "seq", last, "subject", msg.subject, "err", err)
		}
	}
	for c, n := range counts {
		if err := addUint(b, c.key(), n); err != nil {
			return err
		}
	}
	for id, seq := range seqs {
		if err := maxUint(b, keyNodeSeq(id), seq); err != nil {
			return err
		}
	}
	if err := p.writeHeads(b); err != nil {
		return err
	}
	if bad > 0 {
		if err := addUint(b, keyBad, bad); err != nil {
			return err
		}
	}
	if err := b.Set(keyCheckpoint, putUint(last), nil); err != nil {
		return err
	}
	if err := b.Commit(pebble.NoSync); err != nil {
		return fmt.Errorf("commit the hub's read models: %w", err)
	}
	p.mu.Lock()
	p.applied = last
	changed := p.changed
	p.mu.Unlock()
	if changed != nil {
		changed(batchTeams(msgs)...)
	}
	return nil
}

// batchTeams returns the teams whose subjects msgs hold.
func batchTeams(msgs []entry) []string {
	var teams []string
	for _, m := range msgs {
		if team, _, _, _, ok := splitSubject(m.subject); ok && !slices.Contains(teams, team) {
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

// applyOne checks one message and counts its event.
func (p *projector) applyOne(b *pebble.Batch, counts map[counter]uint64, seqs map[string]uint64, subject string, hdr nats.Header, data []byte) error {
	team, ws, nodeID, typ, ok := splitSubject(subject)
	if !ok {
		return fmt.Errorf("%w: subject %q", errForged, subject)
	}
	n, known := p.nodes(nodeID)
	if !known {
		return fmt.Errorf("%w: %s", errNodeNotYetKnown, nodeID)
	}
	if n.Team != team || n.Workspace != ws {
		return fmt.Errorf("%w: node %s is not of team %s, workspace %s", errForged, nodeID, team, ws)
	}
	origin, err := checkSource(hdr.Get(streamSourceHeader), n, typ)
	if err != nil {
		return err
	}
	ev, err := events.Decode(data)
	if err != nil {
		return err
	}
	if ev.WorkspaceID != ws || string(ev.Type) != typ || ev.ID != hdr.Get(nats.MsgIdHdr) {
		return fmt.Errorf("%w: envelope of %s says workspace %s, type %s", errForged, ev.ID, ev.WorkspaceID, ev.Type)
	}
	seqs[nodeID] = max(seqs[nodeID], origin)
	if err := p.chain(b, n, origin, data, ev); err != nil {
		return fmt.Errorf("chain seq %d of node %s: %w", origin, nodeID, err)
	}
	if seen, err := has(b, keyEvent(ev.ID)); err != nil || seen {
		return err // a duplicate is counted once, and is no error
	}
	if err := b.Set(keyEvent(ev.ID), nil, nil); err != nil {
		return err
	}
	day := ev.Time
	if len(day) >= 10 {
		day = day[:10]
	}
	at := counter{Day: day, Team: team, Workspace: ws, Node: nodeID, Member: n.Member}
	count := func(metric, rule, constraint string, k uint64) {
		c := at
		c.Metric, c.Rule, c.Constraint = metric, rule, constraint
		counts[c] += k
	}
	count(metricEvents, "", "", 1)
	if ev.SessionID != "" {
		if err := countSession(b, counts, at, nodeID, &ev); err != nil {
			return err
		}
	}
	if ev.Outcome != events.OutcomeOK {
		return nil
	}
	switch ev.Type {
	case events.TypeRefer:
		var d events.ReferData
		if err := json.Unmarshal(ev.Data, &d); err != nil {
			return fmt.Errorf("decode the refs of %s: %w", ev.ID, err)
		}
		for _, r := range d.Refs {
			count(metricRefs, r.RuleID, r.ConstraintID, 1)
			if r.Revision > 0 {
				count(metricRevRefs, r.RuleID, strconv.FormatUint(r.Revision, 10), 1)
			}
		}
		return foldEvidence(b, at, ev.SessionID, func(e *evidence.Row) {
			for _, r := range d.Refs {
				e.Ref(r.RuleID)
			}
		})
	case events.TypeLoad:
		var d events.LoadData
		if err := json.Unmarshal(ev.Data, &d); err != nil {
			return fmt.Errorf("decode the items of %s: %w", ev.ID, err)
		}
		for _, it := range d.Items {
			count(metricLoads, it.ID, "", 1)
		}
		return foldEvidence(b, at, ev.SessionID, func(e *evidence.Row) {
			for _, it := range d.Items {
				e.Load(it.ID)
			}
		})
	case events.TypeFileEdit:
		var d events.FileEditData
		if err := json.Unmarshal(ev.Data, &d); err != nil {
			return fmt.Errorf("decode the paths of %s: %w", ev.ID, err)
		}
		return foldEvidence(b, at, ev.SessionID, func(e *evidence.Row) { e.Edit(d.Paths, d.Rules) })
	case events.TypeAgentReport:
		count(metricReports, "", "", 1)
	case events.TypeReject:
		count(metricRejects, "", "", 1)
	case events.TypeCatalogPublish:
		var d events.PublishData
		if err := json.Unmarshal(ev.Data, &d); err != nil {
			return fmt.Errorf("decode %s: %w", ev.ID, err)
		}
		if d.Kind == "rule" || d.Kind == "workflow" {
			if err := markScoped(b, team, ws, d); err != nil {
				return err
			}
			return b.Set(keyPublished(team, ws, d.ID), publishedRow(d), nil)
		}
	case events.TypeCatalogRemove:
		var d events.RemoveData
		if err := json.Unmarshal(ev.Data, &d); err != nil {
			return fmt.Errorf("decode %s: %w", ev.ID, err)
		}
		if err := b.Delete(keyScoped(team, ws, d.ID), nil); err != nil {
			return err
		}
		return b.Delete(keyPublished(team, ws, d.ID), nil)
	case events.TypeCatalogReid:
		var d events.ReidData
		if err := json.Unmarshal(ev.Data, &d); err != nil {
			return fmt.Errorf("decode %s: %w", ev.ID, err)
		}
		if err := b.Delete(keyPublished(team, ws, d.From), nil); err != nil {
			return err
		}
		return b.Set(keyAlias(team, ws, d.From), []byte(d.To), nil)
	}
	return nil
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

func has(b *pebble.Batch, k []byte) (bool, error) {
	_, closer, err := b.Get(k)
	if errors.Is(err, pebble.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	closer.Close()
	return true, nil
}

func addUint(b *pebble.Batch, k []byte, n uint64) error {
	v, closer, err := b.Get(k)
	var have uint64
	if err == nil {
		have = getUint(v)
		closer.Close()
	} else if !errors.Is(err, pebble.ErrNotFound) {
		return err
	}
	return b.Set(k, putUint(have+n), nil)
}

func maxUint(b *pebble.Batch, k []byte, n uint64) error {
	v, closer, err := b.Get(k)
	if err == nil {
		have := getUint(v)
		closer.Close()
		if have >= n {
			return nil
		}
	} else if !errors.Is(err, pebble.ErrNotFound) {
		return err
	}
	return b.Set(k, putUint(n), nil)
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

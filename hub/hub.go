package hub

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nkeys"

	"github.com/clumsies/clumsies/events/natsjs"
)

// natsConfName is the generated nats-server configuration in the data
// folder.
const natsConfName = "nats.conf"

// readyTimeout bounds how long Start waits for nats-server.
const readyTimeout = 30 * time.Second

// Hub is a running hub: nats-server with JetStream, the aggregate stream
// that sources every node's ledger, the controller that owns the
// aggregate's sources and the accounts, and the link watcher. Start it
// once and Close it when done.
type Hub struct {
	cfg    *Config
	logger *slog.Logger
	reg    *registry

	// ctrl serializes every change of the aggregate's sources: they are
	// one shared object.
	ctrl sync.Mutex
	// accounts adds the nodes' accounts to the running server.
	accounts *accounts
	// shares waits for the other hubs of a cluster to set up the nodes'
	// accounts (peers.go).
	shares *peerShares
	// sourceWrites coalesces the writes of the aggregate's sources.
	sourceWrites *sourceWrites
	// written is the source list this hub wrote last to each stream of
	// the aggregate, by stream name (setSources), under ctrl.
	written map[string][]string
	// placer places joining nodes in shards.
	placer *shardPlacer
	// sourceWritesMade and sourceWriteNanos count the writes of the
	// sources this hub made and the time they took (Health).
	sourceWritesMade atomic.Uint64
	sourceWriteNanos atomic.Int64
	// sourceAsks answers the other hubs' asks for writes of the sources
	// while this hub is the writer (leader.go); nil when not.
	sourceAsks *nats.Subscription
	// leader is the aggregate's leader as Health read it last.
	leader leaderCache
	// maxNodes is the most active nodes a join leaves (MaxNodes).
	maxNodes int
	// catMu serializes pushes to the team catalogs within this hub.
	catMu sync.Mutex
	// catStreams holds the stream of each team's catalog bucket, by team,
	// once opened (catalogStream).
	catStreams sync.Map
	// cats makes each team's catalog bucket as soon as the hub hears of
	// the team (catalogready.go).
	cats *catalogMaker
	// user is the key of the hub process's own user in hubAccount, new
	// at each start: the configuration names its public key only.
	user nkeys.KeyPair
	ns   *server.Server
	nc   *nats.Conn
	js   jetstream.JetStream

	links   *linkWatcher
	proj    *projector
	reviews *reviewQueue
	// log is the hub's ledger, and ledger its read side.
	log     *natsjs.Log
	ledger  *ledgerRead
	changes *changes
	// reviewMu serializes review decisions within this hub.
	reviewMu sync.Mutex

	stop context.CancelFunc
	done sync.WaitGroup
}

// Start starts the hub described by cfg. logger receives nats-server's
// and the hub's diagnostics; nil discards them.
func Start(ctx context.Context, cfg *Config, logger *slog.Logger) (*Hub, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	if err := os.MkdirAll(cfg.DataDir(), 0o700); err != nil {
		return nil, fmt.Errorf("start hub: %w", err)
	}
	reg, err := openRegistry(cfg.DataDir())
	if err != nil {
		return nil, fmt.Errorf("start hub: %w", err)
	}
	h := &Hub{cfg: cfg, logger: logger, reg: reg, maxNodes: MaxNodes, user: mustUserKey(), changes: newChanges(), shares: newPeerShares()}
	h.written = map[string][]string{}
	h.placer = newShardPlacer(cfg.shardSize())
	h.sourceWrites = &sourceWrites{write: h.writeSources}
	h.sourceWrites.bound.Store(int64(sourceWriteTimeout))
	if err := h.startServer(); err != nil {
		return nil, fmt.Errorf("start hub: %w", err)
	}
	h.cats = newCatalogMaker(h)
	// Answer the other hubs about the accounts set up here before waiting
	// for their answers (attachRegistry): hubs of a cluster that start
	// together then confirm each other's accounts at once instead of each
	// waiting out peersWait per node.
	if err := h.answerAccounts(); err != nil {
		h.shutdown()
		return nil, fmt.Errorf("start hub: %w", err)
	}
	if err := h.attachRegistry(ctx); err != nil {
		h.shutdown()
		return nil, fmt.Errorf("start hub: %w", err)
	}
	if err := h.ensureAggregate(ctx); err != nil {
		h.shutdown()
		return nil, fmt.Errorf("start hub: %w", err)
	}
	if err := h.watchLostShards(); err != nil {
		h.shutdown()
		return nil, fmt.Errorf("start hub: %w", err)
	}
	if err := h.openLedger(ctx); err != nil {
		h.shutdown()
		return nil, fmt.Errorf("start hub: %w", err)
	}
	h.proj, err = openProjector(projectionsDir(cfg), h.reg.node, logger)
	if err != nil {
		h.shutdown()
		return nil, fmt.Errorf("start hub: %w", err)
	}
	h.proj.changed = h.changes.touch
	h.proj.shards = &shardReader{js: h.js}
	h.reviews = h.proj.reviews
	h.reviews.touched = h.changes.touch
	ledgerLast, err := h.resumeLedgerRead(ctx)
	if err != nil {
		h.shutdown()
		h.proj.close()
		return nil, fmt.Errorf("start hub: %w", err)
	}
	wctx, stop := context.WithCancel(context.Background())
	h.stop = stop
	h.links = newLinkWatcher(h)
	h.done.Add(5)
	go func() {
		defer h.done.Done()
		h.watchLeadership(wctx)
	}()
	go func() {
		defer h.done.Done()
		h.followLedger(wctx)
	}()
	go func() {
		defer h.done.Done()
		h.links.run(wctx)
	}()
	go func() {
		defer h.done.Done()
		h.followRegistry(wctx)
	}()
	go func() {
		defer h.done.Done()
		h.proj.run(wctx, h.nc)
	}()
	// Decisions read the review queue and the ledger's read side, and the
	// catalogs are derived from the hub's ledger: serve once both hold
	// what the streams held at start (both keep their rows: only what
	// was not applied yet is to come).
	wait, cancel := context.WithTimeout(ctx, clusterWait)
	defer cancel()
	if _, err := h.caughtUp(wait); err != nil {
		logger.Warn("the read models have not caught up with the aggregate yet; serving anyway", "err", err)
	}
	if err := h.ledger.progress.WaitFor(wait, ledgerLast); err != nil {
		logger.Warn("not caught up with the hub's ledger yet; serving anyway", "err", err)
	}
	return h, nil
}

// serverOptions renders the server's configuration into the data folder
// and parses it, with the hub's authenticator.
func (h *Hub) serverOptions() (*server.Options, error) {
	file := filepath.Join(h.cfg.DataDir(), natsConfName)
	conf := natsConf(h.cfg)
	if err := writeFileAtomic(file, []byte(conf), 0o600); err != nil {
		return nil, fmt.Errorf("write %s: %w", file, err)
	}
	o, err := server.ProcessConfigFile(file)
	if err != nil {
		return nil, fmt.Errorf("load the generated %s: %w", file, err)
	}
	// Only the hub itself is a client, in process; nodes come in over
	// the leaf listener. nats-server starts routing only once its client
	// listener is up: a hub in a cluster listens on a random loopback
	// port, where only its own user and leaf-only nkeys exist.
	o.DontListen = h.cfg.Cluster.Listen == ""
	o.Host, o.Port = "127.0.0.1", server.RANDOM_PORT
	o.NoSigs = true
	// Every connection proves its nkey over the server's nonce, and the
	// authenticator binds it to its account.
	o.AlwaysEnableNonce = true
	o.CustomClientAuthentication = &authenticator{
		hubUser: userPublic(h.user),
		node:    h.reg.nodeByKey,
		ready:   func(id string) bool { return h.accounts.ready(id) },
		lookup:  func(name string) (*server.Account, error) { return h.ns.LookupAccount(name) },
	}
	return o, nil
}

func (h *Hub) startServer() error {
	o, err := h.serverOptions()
	if err != nil {
		return err
	}
	ns, err := server.NewServer(o)
	if err != nil {
		return fmt.Errorf("configure nats-server: %w", err)
	}
	ns.SetLoggerV2(newNATSLogger(h.logger, h.reg.nodeByKey), false, false, false)
	// The registry's nodes have their accounts before the server starts:
	// a peer of the cluster or a source recovered by JetStream may name
	// them at once.
	h.ns, h.accounts = ns, newAccounts(ns)
	// The links account is there before the server starts, nodes or
	// not: a peer of the cluster names it in its interest as soon as the
	// route is up, and an account unknown then loses that interest for
	// good (the responses of the nodes' APIs through it with it).
	if err := h.accounts.setUpLinks(); err != nil {
		ns.Shutdown()
		return err
	}
	if err := h.accounts.addAll(h.reg.nodes()); err != nil {
		ns.Shutdown()
		return err
	}
	// The other hubs of a cluster set these up before they start too.
	for _, n := range h.reg.nodes() {
		h.accounts.share(n.ID)
	}
	ns.Start()
	if !ns.ReadyForConnections(readyTimeout) {
		ns.Shutdown()
		return fmt.Errorf("nats-server not ready after %s", readyTimeout)
	}
	nc, err := nats.Connect(ns.ClientURL(), nats.InProcessServer(ns), userAuth(h.user),
		nats.MaxReconnects(-1))
	if err != nil {
		ns.Shutdown()
		return fmt.Errorf("connect to the hub's server: %w", err)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		ns.Shutdown()
		return err
	}
	h.ns, h.nc, h.js = ns, nc, js
	h.accounts.onAdd = h.announceAccount
	return nil
}

// clusterWait bounds how long Start waits for JetStream (in a cluster:
// for the other hubs) before it can open the registry.
const clusterWait = 2 * time.Minute

// attachRegistry opens the registry's bucket, waiting for JetStream to
// be ready, and applies what it holds.
func (h *Hub) attachRegistry(ctx context.Context) error {
	deadline := time.Now().Add(clusterWait)
	for {
		actx, cancel := context.WithTimeout(ctx, 3*time.Second)
		changed, err := h.reg.attach(actx, h.js, h.cfg.Replicas())
		cancel()
		if err == nil {
			if changed {
				if err := h.accounts.addAll(h.reg.nodes()); err != nil {
					return err
				}
				// The first write of the sources (ensureAggregate)
				// then names these nodes too.
				if shared := h.shareAccounts(); shared != nil {
					select {
					case <-shared:
					case <-ctx.Done():
						return ctx.Err()
					}
				}
			}
			return nil
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return err
		}
		h.logger.Info("waiting for JetStream to open the registry", "err", err)
		time.Sleep(200 * time.Millisecond)
	}
}

// followRegistry applies every change of the registry until ctx ends.
func (h *Hub) followRegistry(ctx context.Context) {
	for ctx.Err() == nil {
		err := h.reg.watch(ctx, func(key string) {
			if err := h.syncEntry(ctx, key); err != nil && ctx.Err() == nil {
				h.logger.Warn("apply a change of the registry", "err", err)
			}
		})
		if ctx.Err() != nil {
			return
		}
		if errors.Is(err, errWatchStalled) {
			h.logger.Warn("the registry's watch fell silent behind the bucket; watching again", "err", err)
			continue
		}
		h.logger.Warn("following the registry failed; retrying", "err", err)
		select {
		case <-ctx.Done():
		case <-time.After(time.Second):
		}
	}
}

// LeafAddr returns the leaf listener's address.
func (h *Hub) LeafAddr() string { return h.cfg.Leaf }

// Config returns the hub's configuration.
func (h *Hub) Config() *Config { return h.cfg }

// Close stops the hub.
func (h *Hub) Close() error {
	if h.stop != nil {
		h.stop()
	}
	h.done.Wait()
	h.shutdown()
	return errors.Join(h.reg.close(), h.proj.close())
}

func (h *Hub) shutdown() {
	if h.cats != nil {
		h.cats.close()
	}
	h.shares.close()
	if h.nc != nil {
		h.nc.Close()
	}
	if h.ns != nil {
		h.ns.Shutdown()
		h.ns.WaitForShutdown()
	}
}

// retry runs fn up to 5 times while it fails unanswered (a timeout, no
// responders, no leader for a moment): a JetStream request can go
// unanswered for a moment (a stream leader elected in a cluster, the
// server still starting).
func retry(ctx context.Context, fn func(context.Context) error) error {
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		actx, cancel := context.WithTimeout(ctx, 5*time.Second)
		err = fn(actx)
		cancel()
		if err == nil || !unanswered(err) {
			return err
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		time.Sleep(100 * time.Millisecond)
	}
	return err
}

// jsNoLeader is JetStream's answer while a stream or the meta layer has
// no leader for a moment, during an election: "JetStream system
// temporarily unavailable".
const jsNoLeader = 10008

// unanswered reports whether err is a request that went unanswered or was
// answered "no leader for a moment": the same request may succeed a
// moment later, once a leader is elected.
func unanswered(err error) bool {
	var api *jetstream.APIError
	return errors.Is(err, context.DeadlineExceeded) || errors.Is(err, nats.ErrNoResponders) ||
		errors.Is(err, nats.ErrTimeout) || errors.Is(err, jetstream.ErrNoStreamResponse) ||
		(errors.As(err, &api) && api.ErrorCode == jsNoLeader)
}

// retryUnanswered is retry for the team catalogs and the hub's ledger,
// which also waits while the account's JetStream answers "jetstream not
// enabled" for a moment (as it did right after a reload of the accounts,
// and may while the server starts). The link watcher's re-sourcing keeps
// retry's short bound: a longer one would hold up its polls.
func retryUnanswered(ctx context.Context, fn func(context.Context) error) error {
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		err = retry(ctx, fn)
		if !errors.Is(err, jetstream.ErrJetStreamNotEnabled) && !errors.Is(err, nats.ErrJetStreamNotEnabled) {
			return err
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		time.Sleep(100 * time.Millisecond)
	}
	return err
}

// Connect returns a connection to the hub's account with every
// permission, in process.
// A handshake that fails is tried again a few times: on a loaded machine
// an in-process connection was seen to end in "read/write on closed pipe"
// during the handshake once in a full test run.
func (h *Hub) Connect() (*nats.Conn, error) {
	var err error
	for range connectTries {
		var nc *nats.Conn
		if nc, err = nats.Connect(h.ns.ClientURL(), nats.InProcessServer(h.ns), userAuth(h.user)); err == nil {
			return nc, nil
		}
		if errors.Is(err, nats.ErrAuthorization) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	return nil, fmt.Errorf("connect to the hub: %w", err)
}

// connectTries bounds Connect's handshakes.
const connectTries = 3

package node

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"path/filepath"
	"sync"
	"time"

	embeddednats "github.com/clumsies/clumsies/embedded-nats"
	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/events/natsjs"
	"github.com/clumsies/clumsies/projections"
	"github.com/clumsies/clumsies/workspace"

	"github.com/nats-io/nats.go"
)

// Options configure a Node, and a Handle when its process owns the
// workspace.
type Options struct {
	// Sync is the JetStream durability: SyncAlways (default) makes every
	// event durable before its append returns, with one fsync shared by
	// the appends that arrive together (the server runs in
	// embeddednats.SyncGroup); SyncInterval leaves it to JetStream's
	// periodic fsync. It applies while this process owns the workspace;
	// the other processes follow the owner's.
	Sync embeddednats.SyncMode
	// Logger receives diagnostics; nil discards them.
	Logger *slog.Logger
	// NATSListen is the "host:port" of an opt-in TCP listener of the
	// embedded server for external consumers; NATSToken is the token its
	// clients must give, required with NATSListen. They apply while this
	// process owns the workspace.
	NATSListen string
	NATSToken  string
	// Link is the workspace's link to its team at a hub (hublink); nil
	// means no hub. The owner's server dials its leaf link (redialing
	// while the hub is away; work never waits for it), and the owner
	// serves the team's catalog next to the repository's.
	Link Link
	// LinkQuiet keeps the link's failed dials of the hub at debug level
	// (embeddednats.Leaf.Quiet): for a command that does not need the hub.
	LinkQuiet bool

	// RetryFor bounds how long a Handle retries a call after the owner was
	// lost; zero means DefaultRetryFor.
	RetryFor time.Duration
	// AttachWait bounds how long Attach waits for a starting owner to
	// answer; zero means DefaultAttachWait.
	AttachWait time.Duration
	// ProjectorFault, if set, is asked before every commit of this
	// process's projector; an error fails the commit as a storage error
	// would, and the projector stops. For fault-injection tests.
	ProjectorFault func(checkpoint uint64) error
	// CheckpointEvery makes the owner append a ledger.checkpoint every so
	// many events and when it shuts down (see Node.Checkpoint); zero
	// appends none. `clumsies serve` sets it.
	CheckpointEvery int
	// NoChain leaves the ledger's hash chain out of the read models (and
	// so appends no checkpoints); for measuring what it costs only.
	NoChain bool
	// CheckpointKey, when set, signs the checkpoints this process appends
	// and lets Verify check the signatures it made: the node identity of
	// a workspace that joined a hub.
	CheckpointKey CheckpointKey
	// Repair makes Attach, when it makes this process the owner, leave the
	// read models closed (they may be unreadable) until Handle.Rebuild
	// rebuilds them; other processes wait for the owner meanwhile.
	Repair bool
	// WatchContent, when set, makes this process, while it owns the
	// workspace, watch the content tree and publish it whenever it
	// changes, and once when it becomes the owner (for changes made while
	// nothing watched). Each publish is reported to WatchContent, from one
	// goroutine: what was appended, or why nothing was (a bad file: the
	// last published content stays).
	WatchContent func(published Published, err error)
}

// Node is an open workspace owned by this process.
type Node struct {
	WS    *workspace.Workspace
	NATS  *embeddednats.Server
	Conn  *nats.Conn
	Log   *natsjs.Log
	Store *projections.Store
	// Durable makes acknowledged events durable (group commit); nil when
	// the workspace runs with SyncInterval.
	Durable *embeddednats.StreamSync

	link     Link               // nil without a hub, or when it failed to open
	linkStop context.CancelFunc // ends the link's Run
	linkDone sync.WaitGroup
	hubNode  string    // the node id the server links to a hub as; "" without a hub
	started  time.Time // when this process took the workspace (OwnerInfo)

	logger  *slog.Logger
	fault   func(uint64) error
	every   int // Options.CheckpointEvery
	noChain bool
	key     CheckpointKey
	scanIdx scanIndex // the publish scan's index (scanindex.go)
	state   *stateID  // what the owner opened in the state folder (stateid.go)

	mu       sync.Mutex
	stopProj context.CancelFunc
	projDone chan struct{}
	projErr  error
	failed   chan error // receives the error of a projector that stopped by itself
	closed   bool
	hold     *projHold // stops the projector's reading for a while (projhold.go)
}

// ProjectionsDir returns where the read models live in a state folder.
func ProjectionsDir(stateDir string) string { return filepath.Join(stateDir, "projections") }

// Open takes ownership of ws: it locks the state folder, starts the embedded
// NATS server and opens the event log. It refuses a state folder that
// records another workspace (ErrForeignState) and records ws in one that
// records none. It does not open the projections;
// call StartProjections (or Rebuild). A workspace owned by another process
// gives an error wrapping embeddednats.ErrLocked (Attach, instead, connects
// to that process).
func Open(ctx context.Context, ws *workspace.Workspace, opts Options) (*Node, error) {
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	mode := opts.Sync
	if mode == embeddednats.SyncAlways {
		mode = embeddednats.SyncGroup
	}
	var leaf *embeddednats.Leaf
	var domain string
	if opts.Link != nil {
		leaf, domain = opts.Link.Leaf()
		if leaf != nil && opts.LinkQuiet {
			quiet := *leaf
			quiet.Quiet = true
			leaf = &quiet
		}
	}
	srv := &embeddednats.Server{Dir: ws.StateDir(), Sync: mode, Logger: logger,
		MaxStore: ws.Config.StoreLimit(), // config.toml max_store; 0: the default
		Listen:   opts.NATSListen, Token: opts.NATSToken,
		Leaf: leaf, Domain: domain,
		// External consumers may subscribe to the workspace's events; the
		// read service (clumsiesrpc) stays out of their reach.
		ReadSubjects: []string{events.StreamSubjects(ws.ID())},
		// They read a mirror of the ledger in an account of their own.
		ReaderStreams: []string{natsjs.StreamName(ws.ID())}}
	if err := checkStateWorkspace(ws); err != nil {
		return nil, err
	}
	if err := srv.Start(); err != nil {
		return nil, err
	}
	if err := claimState(ws); err != nil {
		srv.Close()
		return nil, err
	}
	nc, err := srv.Connect()
	if err != nil {
		srv.Close()
		return nil, fmt.Errorf("connect to the workspace server: %w", err)
	}
	var durable *embeddednats.StreamSync
	state := newStateID()
	block, err := srv.LastBlock(natsjs.StreamName(ws.ID()))
	if err == nil && mode == embeddednats.SyncGroup {
		durable, err = srv.StreamSync(natsjs.StreamName(ws.ID()))
	}
	if err != nil {
		nc.Close()
		srv.Close()
		return nil, fmt.Errorf("open the event stream of %s: %w", ws.Root, err)
	}
	sync := checkedSync{state: state}
	if durable != nil {
		sync.next = durable
	}
	log, err := natsjs.Open(ctx, nc, ws.ID(), natsjs.Options{Sync: sync, Appending: block.Appending})
	if err == nil {
		err = state.record(ws.StateDir(), srv, log.Stream())
	}
	if err != nil {
		nc.Close()
		srv.Close()
		return nil, fmt.Errorf("open the event stream of %s: %w", ws.Root, err)
	}
	n := &Node{WS: ws, NATS: srv, Conn: nc, Log: log, Durable: durable, logger: logger, fault: opts.ProjectorFault, every: opts.CheckpointEvery, noChain: opts.NoChain, key: opts.CheckpointKey, failed: make(chan error, 1), hold: newProjHold(), state: state,
		hubNode: domain, started: time.Now()}
	// The workspace works without its team's catalog: a link that cannot
	// be opened is logged, and the repository's content served.
	n.openLink(ctx, opts.Link)
	return n, nil
}

// StartProjections opens the read models and starts the projector, which
// catches up with the log and then follows it.
//
// Read models of another layout (written by another version), damaged
// ones, and ones ahead of the log (the stream was removed or restored
// from an older backup) are rebuilt from the log: they are derived data.
func (n *Node) StartProjections(ctx context.Context) error {
	dir := ProjectionsDir(n.WS.StateDir())
	opts := projections.Options{Logger: n.logger, CommitFault: n.fault, NoChain: n.noChain}
	store, err := projections.Open(dir, opts)
	if err == nil {
		if err = n.checkBehind(ctx, store); errors.Is(err, errAheadOfLog) {
			// The chain the read models computed is the evidence of how
			// far the ledger went: keep it for verify.
			err = errors.Join(err, n.keepMarkOf(ctx, store))
		}
		if err != nil {
			store.Close()
		}
	}
	if errors.Is(err, projections.ErrIncompatible) || errors.Is(err, projections.ErrCorrupt) || errors.Is(err, errAheadOfLog) {
		n.logger.Warn("rebuilding the read models from the ledger", "dir", dir, "reason", err)
		store, err = projections.Rebuild(ctx, n.Log, dir, opts, nil)
	}
	if err != nil {
		return err
	}
	n.startProjector(store)
	return nil
}

// checkBehind fails with errAheadOfLog when store has applied more events
// than the log holds (the stream was removed, or restored from an older
// backup): new events at sequences it already counts would never be
// applied.
func (n *Node) checkBehind(ctx context.Context, store *projections.Store) error {
	last, err := n.Log.LastSeq(ctx)
	if err != nil {
		return fmt.Errorf("read the stream's last sequence: %w", err)
	}
	if store.Checkpoint() <= last {
		return nil
	}
	return fmt.Errorf("%w: the read models count %d events, the stream holds %d", errAheadOfLog, store.Checkpoint(), last)
}

// errAheadOfLog means the read models have applied more events than the
// stream holds.
var errAheadOfLog = errors.New("the read models are ahead of the stream")

func (n *Node) startProjector(store *projections.Store) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	n.mu.Lock()
	n.Store, n.stopProj, n.projDone, n.projErr = store, cancel, done, nil
	n.mu.Unlock()
	go func() {
		defer close(done)
		err := n.runProjector(ctx, store)
		if err != nil && ctx.Err() == nil {
			n.logger.Error("projector stopped", "err", err)
			n.mu.Lock()
			n.projErr = err
			n.mu.Unlock()
			select {
			case n.failed <- err:
			default:
			}
		}
	}()
}

// stopProjector stops the projector and closes the store.
func (n *Node) stopProjector() error {
	n.mu.Lock()
	stop, done, store := n.stopProj, n.projDone, n.Store
	n.stopProj, n.Store = nil, nil
	n.mu.Unlock()
	if stop == nil {
		return nil
	}
	stop()
	select {
	case <-done:
	case <-time.After(stopWait):
		// A projector stuck in storage (a stalled disk) must not hold the
		// process: the read models are left as they are, unsynced rows
		// roll back with their checkpoint, and the next owner replays.
		n.logger.Error("the projector did not stop; leaving the read models without closing them", "waited", stopWait)
		return fmt.Errorf("stop the projector: %w", ErrProjector)
	}
	return store.Close()
}

// stopWait bounds how long stopping the projector waits for it.
const stopWait = 5 * time.Second

// ErrProjector means the projector stopped with an error: the read models
// are behind the log, so reads and catalog changes fail with it until the
// owner has stepped down and a new owner has caught up (or, if the read
// models are damaged, until `clumsies rebuild`). It reports itself as
// unavailable, which the MCP layer answers as retryable.
var ErrProjector error = projectorError{}

type projectorError struct{}

func (projectorError) Error() string     { return "node: projector stopped" }
func (projectorError) Unavailable() bool { return true }

// projectorFailed receives the error of a projector that stopped by
// itself.
func (n *Node) projectorFailed() <-chan error { return n.failed }

// projectorErr returns an error wrapping ErrProjector if the projector
// has stopped by itself, else nil.
func (n *Node) projectorErr() error {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.projErr != nil {
		return fmt.Errorf("%w: %w", ErrProjector, n.projErr)
	}
	return nil
}

// WaitApplied blocks until the projections have applied seq. It fails fast
// with ErrProjector when the projector has died.
func (n *Node) WaitApplied(ctx context.Context, seq uint64) error {
	n.mu.Lock()
	store, done := n.Store, n.projDone
	n.mu.Unlock()
	if store == nil {
		return fmt.Errorf("%w: projections are not open", ErrProjector)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-done:
			cancel()
		case <-ctx.Done():
		}
	}()
	err := store.WaitFor(ctx, seq)
	if err != nil && store.Checkpoint() < seq {
		n.mu.Lock()
		perr := n.projErr
		n.mu.Unlock()
		if perr != nil {
			return fmt.Errorf("%w: %w", ErrProjector, perr)
		}
		return err
	}
	return nil
}

// CatchUp waits until the projections have applied every event the log
// held when it was called, and returns the sequence of the last one.
func (n *Node) CatchUp(ctx context.Context) (uint64, error) {
	last, err := n.Log.LastSeq(ctx)
	if err != nil {
		return 0, fmt.Errorf("read the stream's last sequence: %w", err)
	}
	if last == 0 {
		return 0, nil
	}
	return last, n.WaitApplied(ctx, last)
}

// Close stops the projector, closes the store, the log connection and the
// server, and releases the lock. A second Close returns an error wrapping
// net.ErrClosed.
func (n *Node) Close() error {
	n.mu.Lock()
	if n.closed {
		n.mu.Unlock()
		return fmt.Errorf("close node: %w", net.ErrClosed)
	}
	n.closed = true
	n.mu.Unlock()
	n.closeLink()
	err := n.stopProjector()
	n.Conn.Drain()
	waitClosed(n.Conn, 2*time.Second)
	return errors.Join(err, n.NATS.Close())
}

func waitClosed(nc *nats.Conn, limit time.Duration) {
	deadline := time.Now().Add(limit)
	for !nc.IsClosed() && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	nc.Close()
}

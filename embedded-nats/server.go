package embeddednats

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
)

// readyTimeout bounds how long Start waits for nats-server to come up.
const readyTimeout = 5 * time.Second

// Server is one workspace's embedded NATS server with JetStream. Set the
// exported fields, call Start once, and Close when done. The fields must not
// change after Start.
type Server struct {
	// Dir is the workspace state folder (<workspace>/.clumsies/state). Start
	// creates it with mode 0700 if missing. The JetStream store goes to
	// Dir/jetstream and the lock file is Dir/owner.lock.
	Dir string
	// Sync says when JetStream fsyncs its store. The zero value, SyncAlways,
	// fsyncs every message before it is acknowledged.
	Sync SyncMode
	// Listen is the "host:port" of an opt-in TCP client listener; port 0
	// picks a free port. Empty means no TCP listener at all: clients use
	// Connect.
	Listen string
	// Token is the token external clients present on the Listen address.
	// They may only read: use the JetStream consumer API and subscribe to
	// their inboxes and ReadSubjects; they cannot publish into streams,
	// manage streams or call services. Required when Listen is set.
	Token string
	// ReadSubjects are subjects external clients may also subscribe to
	// directly (e.g. the workspace stream's subjects).
	ReadSubjects []string
	// ReaderStreams are the streams external clients may read. They read
	// a mirror of each, under the same name, in an account of their own
	// (see ReadersAccount); the streams need not exist yet.
	ReaderStreams []string
	// MaxStore is the most disk space, in bytes, the JetStream store may
	// use; zero means DefaultMaxStore. Appends past it fail.
	MaxStore int64
	// Domain is an optional JetStream domain. A Leaf needs one, distinct
	// from the hub's and from every other node's.
	Domain string
	// Leaf, if set, is the server's outbound link to a hub (see Leaf). The
	// server keeps redialing it while the hub is away; the workspace works
	// the same with or without it.
	Leaf *Leaf
	// Logger receives nats-server's log lines (never stdout). Nil discards
	// them.
	Logger *slog.Logger

	mu     sync.Mutex
	access *access // nil without a listener
	ns     *server.Server
	logger *slogLogger
	lock   *lockFile
	closed bool
}

// Start takes the state folder's lock, then starts nats-server with
// JetStream and waits until it is ready. It returns a *LockedError (matching
// ErrLocked) if another Server owns Dir; the store is then left untouched.
// Start may be called once; after Close it returns an error wrapping
// net.ErrClosed.
func (s *Server) Start() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.closed:
		return fmt.Errorf("start nats: %w", net.ErrClosed)
	case s.ns != nil:
		return errors.New("start nats: embeddednats: server already started")
	}
	ns, lock, err := s.start()
	if err != nil {
		return fmt.Errorf("start nats: %w", err)
	}
	s.ns, s.lock = ns, lock
	return nil
}

// start does Start's work and leaves nothing running or locked on failure.
func (s *Server) start() (*server.Server, *lockFile, error) {
	opts, err := s.options()
	if err != nil {
		return nil, nil, err
	}
	if err := os.MkdirAll(s.Dir, 0o700); err != nil {
		return nil, nil, fmt.Errorf("create state folder %s: %w", s.Dir, err)
	}
	// The lock comes before anything that could touch the store.
	lock, err := acquireLock(LockPath(s.Dir))
	if err != nil {
		return nil, nil, err
	}
	ns, err := s.run(opts)
	if err != nil {
		return nil, nil, errors.Join(err, lock.release())
	}
	return ns, lock, nil
}

// run starts nats-server with opts and waits until it serves JetStream.
func (s *Server) run(opts *server.Options) (*server.Server, error) {
	storeDir := StoreDir(s.Dir)
	if err := os.MkdirAll(storeDir, 0o700); err != nil {
		return nil, fmt.Errorf("create store folder %s: %w", storeDir, err)
	}
	ns, err := server.NewServer(opts)
	if err != nil {
		return nil, fmt.Errorf("configure nats-server: %w", err)
	}
	logger := newSlogLogger(s.Logger, s.Leaf)
	s.logger = logger // Start holds s.mu
	ns.SetLoggerV2(logger, false, false, false)
	ns.Start()
	err = logger.fatalError()
	if err == nil && !ns.ReadyForConnections(readyTimeout) {
		err = fmt.Errorf("nats-server not ready after %s", readyTimeout)
	}
	if err == nil && !ns.JetStreamEnabled() {
		err = errors.New("nats-server started without JetStream")
	}
	if err == nil && s.access != nil {
		err = s.openToReaders(ns)
	}
	if err != nil {
		ns.Shutdown()
		ns.WaitForShutdown()
		return nil, err
	}
	return ns, nil
}

// Connect returns a client connection with every permission to the
// running server over an in-process pipe; it needs no TCP listener. opts
// are applied after its own and may override them.
func (s *Server) Connect(opts ...nats.Option) (*nats.Conn, error) {
	ns, err := s.running()
	if err != nil {
		return nil, fmt.Errorf("connect nats: %w", err)
	}
	all := []nats.Option{nats.InProcessServer(ns)}
	if t := s.InternalToken(); t != "" {
		all = append(all, nats.Token(t))
	}
	nc, err := nats.Connect(ns.ClientURL(), append(all, opts...)...)
	if err != nil {
		return nil, fmt.Errorf("connect nats: %w", err)
	}
	return nc, nil
}

// InternalToken returns the token that gives a client every permission when
// the server has a TCP listener (a random secret made by Start), or "" when
// it has none and no token is needed. The owner hands it to the
// workspace's own processes; never show it to anyone else.
func (s *Server) InternalToken() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.access == nil {
		return ""
	}
	return string(s.access.internal)
}

// WriteFailed is closed when the JetStream store has a critical write
// error (a full disk, an I/O error). nats-server then fails every later
// write of that stream, even once space is free, until it starts again: a
// caller restarts the server. It is nil before Start.
func (s *Server) WriteFailed() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.logger == nil {
		return nil
	}
	return s.logger.writeFailed
}

// Refused returns how many operations the server refused its clients
// since Start: a permission they lack, a limit, a failed authentication.
// They are logged at debug level only (a reader can repeat them at will).
func (s *Server) Refused() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.logger == nil {
		return 0
	}
	return s.logger.refused.Load()
}

// NATS returns the underlying nats-server, for adapters that need it. It is
// nil before Start.
func (s *Server) NATS() *server.Server {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ns
}

// LockFile returns the lock file the running server holds its lock on,
// as it was opened (fstat): its device and inode tell whether the file
// at Dir/owner.lock is still that one, or was removed or replaced while
// the server ran.
func (s *Server) LockFile() (os.FileInfo, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.lock == nil || s.closed {
		return nil, fmt.Errorf("stat lock file: %w", net.ErrClosed)
	}
	fi, err := s.lock.stat()
	if err != nil {
		return nil, fmt.Errorf("stat lock file: %w", err)
	}
	return fi, nil
}

// LockPath returns the lock file of the state folder dir.
func LockPath(dir string) string { return filepath.Join(dir, lockName) }

// StoreDir returns the JetStream store of the state folder dir.
func StoreDir(dir string) string { return filepath.Join(dir, server.JetStreamStoreDir) }

// Close shuts the server down, waits until it has stopped and then releases
// the lock. A second Close returns an error wrapping net.ErrClosed.
func (s *Server) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return fmt.Errorf("close nats: %w", net.ErrClosed)
	}
	s.closed = true
	if s.ns == nil {
		return nil
	}
	s.ns.Shutdown()
	s.ns.WaitForShutdown()
	if err := s.lock.release(); err != nil {
		return fmt.Errorf("close nats: %w", err)
	}
	return nil
}

// running returns the started server, or an error if there is none.
func (s *Server) running() (*server.Server, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.closed:
		return nil, net.ErrClosed
	case s.ns == nil:
		return nil, errors.New("embeddednats: server not started")
	}
	return s.ns, nil
}

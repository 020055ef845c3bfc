package projections

import (
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/clumsies/clumsies/projections/engine"
)

// Options configure a Store.
type Options struct {
	// FS is the file system the store lives on; nil means the OS file
	// system. Tests use vfs.NewMem().
	FS vfs.FS
	// BatchSize bounds the events written in one pebble batch while Run
	// and Rebuild catch up; 0 means 1000.
	BatchSize int
	// Logger receives pebble's messages (its informational ones at debug
	// level); nil means slog.Default().
	Logger *slog.Logger
	// CommitFault, if set, is asked before every commit of the projector
	// with the checkpoint the batch would reach; an error it returns fails
	// the commit as a storage error does. For fault-injection tests.
	CommitFault func(checkpoint uint64) error
	// NoChain leaves the ledger's hash chain (Chain) out of the read
	// models. For measuring what the chain costs (make bench) only: a
	// store without it cannot vouch for checkpoints.
	NoChain bool
}

// DefaultBatchSize is the batch size used when Options.BatchSize is 0.
const DefaultBatchSize = 1000

// blockCacheSize is the size of pebble's block cache. The read models are
// served from memory; pebble is read for a body or a row not in memory,
// one block at a time, and once, at Open, from end to end, which through
// pebble's default 8 MiB cache left that much memory (outside the Go heap)
// filled with blocks no one reads again.
const blockCacheSize = 1 << 20

func (o Options) withDefaults() Options {
	if o.FS == nil {
		o.FS = vfs.Default
	}
	if o.BatchSize <= 0 {
		o.BatchSize = DefaultBatchSize
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	return o
}

// Store owns the pebble database that holds every read model, and an
// in-memory copy of all of it but object bodies. One projector (Apply or
// Run) writes it; any number of goroutines may read it meanwhile.
type Store struct {
	dir       string
	corrupt   *corruption // set when pebble finds a damaged file
	fault     func(uint64) error
	noChain   bool
	db        *pebble.DB
	lock      *pebble.Lock
	logger    *slog.Logger
	batchSize int

	applyMu sync.Mutex // one Apply at a time
	bulk    *bulkFold  // set in a store opened for a rebuild: Apply folds batches

	mu     sync.RWMutex // guards st and broken; held for writing from change to commit
	st     *state
	broken error       // a failed commit that could not be rolled back in memory
	rows   rowCache    // bodies and constraints read last (rowcache.go)
	closed atomic.Bool // set under mu, so a reader holding mu sees an open db

	// progress is the checkpoint readers see, and their WaitFor; Close
	// closes it with ErrClosed.
	progress  engine.Progress
	committer engine.Committer[decoded, *state]
}

// Open opens the store in dir, creating it if needed, and loads the read
// models into memory.
//
// It returns an error wrapping ErrLocked if another process (or another
// Store) has the store open, ErrIncompatible if the store was written in
// another layout, and ErrCorrupt if its files cannot be read or a file
// stands where its folder should be; the last two errors name dir and say
// to run `clumsies rebuild`. Other errors are those of the file system.
func Open(dir string, opts Options) (*Store, error) {
	opts = opts.withDefaults()
	if info, err := opts.FS.Stat(dir); err == nil && !info.IsDir() {
		return nil, fmt.Errorf("open projections store %s: %w: it is a file, not a folder; remove it, then %s", dir, ErrCorrupt, rebuildHint)
	}
	if err := opts.FS.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("open projections store %s: %w", dir, err)
	}
	lock, err := pebble.LockDirectory(dir, opts.FS)
	if err != nil {
		return nil, fmt.Errorf("open projections store %s: %w (is another clumsies process serving this workspace?): %w", dir, ErrLocked, err)
	}
	return openLocked(dir, opts, lock, false)
}

// Pebble's settings for a rebuild into a fresh folder (openLocked's bulk):
// no write-ahead log, since a rebuild that stops is started again from an
// empty folder, and a memtable large enough that few flushes (and the
// compactions they cause) happen while it writes.
const bulkMemTableSize = 32 << 20

// memTableSize is pebble's memtable size outside a rebuild. The read
// models' writes are small rows; pebble starts at 256 KiB and doubles up
// to this. Once a memtable of this size has been flushed, pebble keeps it
// for the next (its recycled memtable), so a serving store holds two:
// at 1 MiB they were 1.5 MiB of serve's resident memory more than at
// 512 KiB after 1,000 memloads (BENCHMARKS.md, "Serve's peak under 44.5
// MiB: pebble's memtables (issue 35)"), for twice the flushes, each of
// half as much.
const memTableSize = 512 << 10

// openLocked opens the store in dir, whose lock the caller holds. The
// store takes the lock over; on error the lock is released. bulk opens it
// for a rebuild (bulkMemTableSize): what it writes is durable only once
// flushed (Store.flush).
func openLocked(dir string, opts Options, lock *pebble.Lock, bulk bool) (*Store, error) {
	corrupt := newCorruption()
	memTable := uint64(memTableSize)
	if bulk {
		memTable = bulkMemTableSize
	}
	db, err := pebble.Open(dir, &pebble.Options{
		DisableWAL:         bulk,
		MemTableSize:       memTable,
		FS:                 opts.FS,
		Lock:               lock,
		Logger:             pebbleLogger{opts.Logger},
		FormatMajorVersion: pebble.FormatNewest,
		CacheSize:          blockCacheSize,
		// Corruption found while reading (a bad block of a table) is
		// reported here rather than through Logger.Fatalf, which would
		// kill the process in pebble's own goroutine: the store refuses
		// work from then on (ErrCorrupt), and the owner rebuilds it.
		EventListener: &pebble.EventListener{DataCorruption: func(info pebble.DataCorruptionInfo) {
			corrupt.set(dir, info, opts.Logger)
		}},
	})
	if err != nil {
		lock.Close()
		return nil, fmt.Errorf("open projections store %s: %w: %w; %s", dir, ErrCorrupt, err, rebuildHint)
	}
	st, err := prepare(db, bulk)
	if err != nil {
		db.Close()
		lock.Close()
		return nil, fmt.Errorf("open projections store %s: %w; %s", dir, err, rebuildHint)
	}
	s := &Store{
		corrupt: corrupt,
		dir:     dir, fault: opts.CommitFault, noChain: opts.NoChain, db: db, lock: lock, logger: opts.Logger, batchSize: opts.BatchSize,
	}
	s.committer = engine.Committer[decoded, *state]{DB: db, Load: loadState}
	if bulk {
		s.bulk = &bulkFold{maxEvents: bulkFoldBatches * opts.BatchSize}
	}
	s.adopt(st)
	s.progress.Set(st.checkpoint)
	return s, nil
}

// prepare checks the layout version of db, writing it into an empty
// database (synced, unless db is opened for a rebuild and has no log),
// and loads the state.
func prepare(db *pebble.DB, bulk bool) (*state, error) {
	v, closer, err := db.Get(keySchema)
	switch {
	case errors.Is(err, pebble.ErrNotFound):
		empty, err := isEmpty(db)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrCorrupt, err)
		}
		if !empty {
			return nil, fmt.Errorf("%w: it has no layout version", ErrIncompatible)
		}
		sync := pebble.Sync
		if bulk {
			sync = pebble.NoSync
		}
		if err := db.Set(keySchema, encodeU64(schemaVersion), sync); err != nil {
			return nil, fmt.Errorf("write layout version: %w", err)
		}
	case err != nil:
		return nil, fmt.Errorf("%w: read layout version: %w", ErrCorrupt, err)
	default:
		version, err := decodeU64(v)
		closer.Close()
		if err != nil {
			return nil, fmt.Errorf("%w: layout version: %w", ErrCorrupt, err)
		}
		if version != schemaVersion {
			return nil, fmt.Errorf("%w: layout version %d, this build reads %d", ErrIncompatible, version, schemaVersion)
		}
	}
	st, err := loadState(db)
	if err != nil {
		return nil, fmt.Errorf("%w: load read models: %w", ErrCorrupt, err)
	}
	return st, nil
}

func isEmpty(db *pebble.DB) (bool, error) {
	it, err := db.NewIter(nil)
	if err != nil {
		return false, err
	}
	empty := !it.First()
	return empty, errors.Join(it.Error(), it.Close())
}

// Close waits for a running Apply, closes the database (pebble syncs its
// log on close), releases the directory and wakes every WaitFor, which then
// returns ErrClosed. A second Close returns an error wrapping ErrClosed.
func (s *Store) Close() error {
	s.applyMu.Lock()
	defer s.applyMu.Unlock()
	s.mu.Lock()
	wasClosed := s.closed.Swap(true)
	s.mu.Unlock()
	if wasClosed {
		return fmt.Errorf("close projections store %s: %w", s.dir, ErrClosed)
	}
	s.progress.Close(ErrClosed)
	err := s.db.Close()
	if lerr := s.lock.Close(); err == nil {
		err = lerr
	}
	if err != nil {
		return fmt.Errorf("close projections store %s: %w", s.dir, err)
	}
	return nil
}

// body reads the published body of object id. The caller holds s.mu and
// has checked that the store is open.
func (s *Store) body(id string) (string, error) {
	return s.get(bodyKey(id), "body of "+id)
}

// get reads a row that lives on disk only. A damaged file gives ErrCorrupt.
// The caller holds s.mu and has checked that the store is open.
func (s *Store) get(key []byte, what string) (string, error) {
	v, closer, err := s.db.Get(key)
	if err != nil {
		if cerr := s.corrupt.check(); cerr != nil {
			return "", fmt.Errorf("read %s: %w", what, cerr)
		}
		return "", fmt.Errorf("read %s: %w", what, err)
	}
	defer closer.Close()
	return string(v), nil
}

// pebbleLogger hands pebble's messages to slog.
type pebbleLogger struct{ l *slog.Logger }

func (p pebbleLogger) Infof(format string, args ...any) {
	p.l.Debug(fmt.Sprintf(format, args...), "component", "pebble")
}

func (p pebbleLogger) Errorf(format string, args ...any) {
	p.l.Error(fmt.Sprintf(format, args...), "component", "pebble")
}

// Fatalf logs and panics: pebble calls it when it cannot go on, and does
// not expect it to return.
func (p pebbleLogger) Fatalf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	p.l.Error(msg, "component", "pebble")
	panic("pebble: " + msg)
}

// adopt makes st the store's state, with the options that apply to it.
func (s *Store) adopt(st *state) {
	st.chain.off = s.noChain
	s.st = st
	s.rows.clear()
}

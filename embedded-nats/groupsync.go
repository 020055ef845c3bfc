package embeddednats

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Where nats-server keeps a stream of the global account, under the
// server's store folder (Dir/jetstream): <account>/streams/<name>, with
// the message blocks in msgs/<index>.blk, numbered from 1 in the order
// they are created.
const (
	globalAccount = "$G"
	streamsFolder = "streams"
	msgsFolder    = "msgs"
	blockSuffix   = ".blk"
)

// StreamSync makes the acknowledged messages of one stream of a SyncGroup
// server durable: Sync returns once an fsync that started after the call
// has finished, and callers that arrive while an fsync runs share the next
// one. It is safe for concurrent use.
//
// nats-server writes a message to the stream's last block file before it
// acknowledges it; Sync fsyncs that file (and any block created since the
// previous Sync, with the folder that lists it). The first Sync fsyncs
// every file and folder of the stream, for what was written before it.
// When recent rounds served several callers (several writers are active),
// the caller that starts the next round first gathers: it waits until as
// many callers as the largest of the last few rounds served have arrived,
// so that they share one fsync rather than two, but no longer than those
// missing would take at the rate calls have been arriving, and never
// longer than MaxGather; when calls come further apart than that, it does
// not wait at all. A lone writer never waits.
//
// An fsync that fails fails every later Sync too: after a failed fsync
// the kernel may have dropped the pages it could not write, and only a
// restart (which reads the files back) tells what the disk holds.
type StreamSync struct {
	dir string // the stream's folder

	mu      sync.Mutex
	cond    sync.Cond
	started uint64 // fsync rounds started
	done    uint64 // fsync rounds finished
	running bool
	err     error         // the first failure; sticky
	failed  chan struct{} // closed with the first failure

	pending int               // callers the next round to start will serve
	batches [recentRounds]int // callers the last rounds served, a ring
	expect  int               // the largest of batches
	gather  chan struct{}     // while a leader gathers: closed when enough arrived
	arrived time.Time         // when the last caller came
	gap     time.Duration     // moving average of the time between callers

	// Used by the round that runs, one at a time.
	scanned bool   // the first round's full sync happened
	last    uint64 // index of the last block synced

	rounds atomic.Uint64
	calls  atomic.Uint64
}

// StreamSync returns the syncer of the named stream of the global account
// (the account of Connect's connections). It does not check that the
// stream exists: Sync of a stream not yet created syncs nothing.
func (s *Server) StreamSync(stream string) (*StreamSync, error) {
	if stream == "" || strings.ContainsAny(stream, `/\.`) {
		return nil, fmt.Errorf("embeddednats: stream name %q cannot name a folder", stream)
	}
	g := &StreamSync{dir: StreamDir(s.Dir, stream),
		failed: make(chan struct{})}
	g.cond.L = &g.mu
	return g, nil
}

// StreamDir returns the folder of the named stream of the global account
// in the state folder dir.
func StreamDir(dir, stream string) string {
	return filepath.Join(StoreDir(dir), globalAccount, streamsFolder, stream)
}

// Sync returns once every message of the stream acknowledged before the
// call is on stable storage, or with the error of the fsync that was to
// make it so. ctx is checked before waiting only: an fsync cannot be
// interrupted.
func (g *StreamSync) Sync(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("sync stream: %w", err)
	}
	g.calls.Add(1)
	g.mu.Lock()
	defer g.mu.Unlock()
	// A round that has already started may have missed this caller's
	// message: wait for the next one to start and finish.
	need := g.started + 1
	now := time.Now()
	if !g.arrived.IsZero() {
		// An average over about the last eight calls.
		g.gap += (now.Sub(g.arrived) - g.gap) / 8
	}
	g.arrived = now
	g.pending++
	if g.gather != nil && g.pending >= g.expect {
		close(g.gather)
		g.gather = nil
	}
	for g.done < need && g.err == nil {
		if g.running {
			g.cond.Wait()
			continue
		}
		g.running = true
		if g.pending < g.expect {
			g.gatherLocked()
		}
		g.started++
		round, batch := g.started, g.pending
		g.pending = 0
		g.mu.Unlock()
		err := g.flush()
		g.mu.Lock()
		g.running = false
		g.done = round
		g.served(round, batch)
		if err != nil && g.err == nil {
			g.err = fmt.Errorf("sync stream %s: %w", filepath.Base(g.dir), err)
			close(g.failed)
		}
		g.cond.Broadcast()
	}
	return g.err
}

// recentRounds is how many rounds the expected batch looks back on.
const recentRounds = 8

// served records that round served batch callers.
func (g *StreamSync) served(round uint64, batch int) {
	g.batches[round%recentRounds] = batch
	g.expect = 0
	for _, b := range g.batches {
		g.expect = max(g.expect, b)
	}
}

// MaxGather bounds how long the caller that starts a round waits for the
// others it expects.
const MaxGather = 2 * time.Millisecond

// gatherLocked waits, without the lock, until g.expect callers are
// pending, or for as long as the missing ones would take to come at the
// recent rate, at most MaxGather.
func (g *StreamSync) gatherLocked() {
	wait := g.gatherWait()
	if wait <= 0 {
		return
	}
	ch := make(chan struct{})
	g.gather = ch
	g.mu.Unlock()
	t := time.NewTimer(wait)
	select {
	case <-ch:
	case <-t.C:
	}
	t.Stop()
	g.mu.Lock()
	if g.gather == ch {
		g.gather = nil
	}
}

// Failed is closed when a sync has failed: every later Sync fails too,
// until the server starts again and reads back what the disk holds.
func (g *StreamSync) Failed() <-chan struct{} { return g.failed }

// gatherWait is how long the caller starting a round waits for the
// others expected: none when they are all there, or when callers come
// further apart than a gather may last (a burst, such as an agent's call
// meeting a checkpoint, is over).
func (g *StreamSync) gatherWait() time.Duration {
	if g.pending >= g.expect || g.gap > MaxGather {
		return 0
	}
	return min(time.Duration(g.expect-g.pending)*g.gap, MaxGather)
}

// Stats returns how many fsync rounds ran and how many Sync calls were
// made.
func (g *StreamSync) Stats() (rounds, calls uint64) {
	return g.rounds.Load(), g.calls.Load()
}

// flush runs one round: the blocks written since the previous round, or
// everything in the first.
func (g *StreamSync) flush() error {
	g.rounds.Add(1)
	msgs := filepath.Join(g.dir, msgsFolder)
	if !g.scanned {
		last, found, err := syncTree(g.dir)
		if err != nil {
			return err
		}
		g.scanned, g.last = found, last
		return nil
	}
	// Blocks are created with the next index; find those made since.
	hi := g.last
	for {
		if _, err := os.Stat(blockPath(msgs, hi+1)); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				break
			}
			return fmt.Errorf("look for new blocks: %w", err)
		}
		hi++
	}
	for i := max(g.last, 1); i <= hi; i++ {
		if err := syncFile(blockPath(msgs, i)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	if hi > g.last {
		if err := syncFile(msgs); err != nil {
			return err
		}
		g.last = hi
	}
	return nil
}

// syncTree fsyncs every file and folder under dir, and dir's parent (the
// entry of a new stream), and returns the highest block index it saw. A
// dir that does not exist yet syncs nothing and is not found. Entries that
// vanish meanwhile (nats-server replaces its index and state files by
// renames; it rebuilds them from the blocks when they are lost) are
// skipped, and the walk goes on to the blocks.
func syncTree(dir string) (last uint64, found bool, err error) {
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return 0, false, nil
	}
	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		if !d.IsDir() && !d.Type().IsRegular() {
			return nil
		}
		if i, ok := blockIndex(d.Name()); ok && !d.IsDir() {
			last = max(last, i)
		}
		if err := syncFile(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	})
	if err != nil {
		return 0, false, err
	}
	if err := syncFile(filepath.Dir(dir)); err != nil {
		return 0, false, err
	}
	return last, true, nil
}

// blockIndex reads the index of a block file's name.
func blockIndex(name string) (uint64, bool) {
	num, ok := strings.CutSuffix(name, blockSuffix)
	if !ok {
		return 0, false
	}
	i, err := strconv.ParseUint(num, 10, 64)
	return i, err == nil
}

func blockPath(msgs string, index uint64) string {
	return filepath.Join(msgs, strconv.FormatUint(index, 10)+blockSuffix)
}

// syncFile fsyncs the file or folder at path (an fsync through any
// descriptor of a file writes all of its dirty pages). Windows cannot
// fsync a folder; there a folder is skipped.
func syncFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("open %s to sync it: %w", path, err)
	}
	if runtime.GOOS == "windows" {
		if st, err := f.Stat(); err == nil && st.IsDir() {
			return f.Close()
		}
	}
	serr := f.Sync()
	cerr := f.Close()
	if serr != nil {
		return fmt.Errorf("fsync %s: %w", path, serr)
	}
	if cerr != nil {
		return fmt.Errorf("close %s after its fsync: %w", path, cerr)
	}
	return nil
}

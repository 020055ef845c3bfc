package node

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	embeddednats "github.com/clumsies/clumsies/embedded-nats"
	"github.com/clumsies/clumsies/events/natsjs"
)

// stateID is the identity (device and inode) of what an owner opened in
// the state folder: the folder, its lock file, the JetStream store and
// the stream's folder. Removing or replacing the state folder while the
// owner runs (`git clean -fdX`: state/ is git-ignored) unlinks them; the
// owner's server keeps appending into the open, deleted files, and a new
// process takes a lock on a new lock file of the same name. So the owner
// compares the paths with what it opened before it acknowledges an
// append, and on its watch tick.
//
// Where the check sits: after the append is durable and before its answer
// goes back (checkedSync for this process's appends, owner.sync for the
// other processes'). A check passed then proves that the event was durable
// in the files the workspace's paths named: a removal that comes later
// removes a stored event, like one made a minute later. A check before the
// append would not: the folder could go between the check and the append,
// and the ack would be of an event already deleted. A check that fails
// means the event went into files that are no longer the workspace's: it
// is not in the ledger the workspace has (a deleted store is lost; a
// folder moved away keeps it, and if it is moved back the retry of the
// same event finds it there and stores nothing twice). The answer is then
// an error wrapping ErrUnavailable, which the Handle retries with the same
// event through the next owner.
//
// The first failed check makes the owner step down (watchState): it
// acknowledges nothing more, closes its socket and releases the lock it
// holds on a file nobody else can find; the Handles attach again, and the
// next owner opens (or creates) the state folder the path now names. A
// process that takes the lock of a new state folder meanwhile is never
// an owner beside one that acknowledges: the old owner's checks fail from
// the moment its folder went.
//
// Inodes of removed files are given to new ones: the lock file, which the
// owner holds open, is the one whose inode cannot be, so a new folder in
// the same place never passes for the old one.
//
// A check is four stat calls (see BenchmarkStateCheck).
type stateID struct {
	paths []string      // what is checked, in the order a user sees it
	infos []os.FileInfo // what they were when opened

	once   sync.Once
	failed chan struct{} // closed at the first failed check
	err    error         // the first failed check's, set before failed closes
}

func newStateID() *stateID { return &stateID{failed: make(chan struct{})} }

// record records what the owner opened in stateDir: the lock file as srv
// holds it, and the folder, the store and the folder of the stream as
// they are now; it is called once, before the owner's first append. It
// fails if the lock file at the path is already another (the folder was
// replaced while the workspace opened).
func (s *stateID) record(stateDir string, srv *embeddednats.Server, stream string) error {
	lock, err := srv.LockFile()
	if err != nil {
		return fmt.Errorf("record the state folder's identity: %w", err)
	}
	paths := []string{stateDir, embeddednats.LockPath(stateDir), embeddednats.StoreDir(stateDir), embeddednats.StreamDir(stateDir, stream)}
	for i, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			return fmt.Errorf("record the state folder's identity: %w", err)
		}
		if i == 1 && !os.SameFile(fi, lock) {
			return fmt.Errorf("record the state folder's identity: %s is not the lock file this process locked: the state folder was replaced while the workspace opened", p)
		}
		s.infos = append(s.infos, fi)
	}
	s.paths = paths
	return nil
}

// check returns nil while every path still names what the owner opened,
// and an error wrapping ErrUnavailable (and errStateReplaced) once one
// does not; the first such error also closes failed.
func (s *stateID) check() error {
	select {
	case <-s.failed:
		return s.err
	default:
	}
	for i, p := range s.paths {
		fi, err := os.Stat(p)
		if err == nil && os.SameFile(fi, s.infos[i]) {
			continue
		}
		why := "replaced"
		if err != nil {
			why = "removed or moved away"
		}
		s.fail(fmt.Errorf("%w: %w: %s was %s while this process owned the workspace (git clean?); what it appended since is not in the workspace's ledger, and it stops acknowledging and hands the workspace to a new owner",
			ErrUnavailable, errStateReplaced, p, why))
		return s.err
	}
	return nil
}

func (s *stateID) fail(err error) {
	s.once.Do(func() {
		s.err = err
		close(s.failed)
	})
}

// errStateReplaced means the owner's state folder, lock file or store is
// no longer the one it opened.
var errStateReplaced = errors.New("node: the state folder is no longer the one this process opened")

// checkedSync is the Syncer of the owner's own log: it makes an append
// durable (next; nil when the server fsyncs by itself) and then checks
// the state folder (see stateID) before the append is acknowledged.
type checkedSync struct {
	next  natsjs.Syncer
	state *stateID
}

// Sync implements natsjs.Syncer.
func (s checkedSync) Sync(ctx context.Context) error {
	if s.next != nil {
		if err := s.next.Sync(ctx); err != nil {
			return err
		}
	}
	return s.state.check()
}

// watchState fails when the state folder is no longer the one the owner
// opened: at once when a check before an acknowledgement found it, and
// otherwise at the next tick. The owner then steps down.
func (o *owner) watchState(ctx context.Context) error {
	t := time.NewTicker(socketCheck)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-o.n.state.failed:
			return o.n.state.err
		case <-t.C:
			o.n.state.check()
		}
	}
}

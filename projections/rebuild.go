package projections

import (
	"context"
	"errors"
	"fmt"
	"io/fs"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/clumsies/clumsies/events"
)

// lockFile is the name of the lock file pebble keeps in its directory.
// Dropping the store removes everything else, so the lock stays held.
const lockFile = "LOCK"

// Rebuild throws away every read model in dir, whatever state it is in (a
// corrupt store, one of another layout, a file in its place), replays the
// whole of log into a new store and returns that store, open.
//
// progress, if not nil, is called after each committed batch with the
// events applied so far and the events the log held when Rebuild started.
// It returns an error wrapping ErrLocked if the store is open elsewhere
// (nothing is dropped then), ctx.Err() if ctx ends, and the first error of
// the file system, the log or Apply.
func Rebuild(ctx context.Context, log events.Log, dir string, opts Options, progress func(done, total uint64)) (*Store, error) {
	opts = opts.withDefaults()
	total, err := log.LastSeq(ctx)
	if err != nil {
		return nil, fmt.Errorf("rebuild %s: read last sequence: %w", dir, err)
	}
	lock, err := drop(dir, opts.FS)
	if err != nil {
		return nil, fmt.Errorf("rebuild %s: %w", dir, err)
	}
	s, err := openLocked(dir, opts, lock)
	if err != nil {
		return nil, fmt.Errorf("rebuild %s: %w", dir, err)
	}
	var report func(uint64)
	if progress != nil {
		progress(0, total)
		report = func(done uint64) { progress(done, max(done, total)) }
	}
	err = s.catchUp(ctx, log, total, report)
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		s.Close()
		return nil, fmt.Errorf("rebuild %s: %w", dir, err)
	}
	return s, nil
}

// drop locks dir and removes everything in it but the lock file, making
// dir a directory if something else is in its place. It returns the held
// lock.
func drop(dir string, fsys vfs.FS) (*pebble.Lock, error) {
	info, err := fsys.Stat(dir)
	switch {
	case err == nil && !info.IsDir():
		if err := fsys.Remove(dir); err != nil {
			return nil, fmt.Errorf("remove the file in place of the store: %w", err)
		}
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return nil, err
	}
	if err := fsys.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	lock, err := pebble.LockDirectory(dir, fsys)
	if err != nil {
		return nil, fmt.Errorf("%w (is another clumsies process serving this workspace?): %w", ErrLocked, err)
	}
	names, err := fsys.List(dir)
	if err != nil {
		lock.Close()
		return nil, err
	}
	for _, name := range names {
		if name == lockFile {
			continue
		}
		if err := fsys.RemoveAll(fsys.PathJoin(dir, name)); err != nil {
			lock.Close()
			return nil, fmt.Errorf("drop read models: %w", err)
		}
	}
	return lock, nil
}

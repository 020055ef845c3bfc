package projections

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/clumsies/clumsies/events"
)

// lockFile is the name of the lock file pebble keeps in its directory.
// Dropping the store removes everything else, so the lock stays held.
const lockFile = "LOCK"

// Rebuild throws away every read model in dir, whatever state the store is
// in (corrupt, or of another layout), replays the whole of log into a new
// store and returns that store, open.
//
// progress, if not nil, is called after each committed batch with the
// events applied so far and the events the log held when Rebuild started.
// It returns an error wrapping ErrLocked if the store is open elsewhere,
// and one wrapping ErrCorrupt if dir is a file; nothing is removed then,
// nor from a folder that does not look like a store. Otherwise it returns
// ctx.Err() if ctx ends, and the first error of the file system, the log
// or Apply.
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
	err = s.pump(ctx, log.Replay, total, report)
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		s.Close()
		return nil, fmt.Errorf("rebuild %s: %w", dir, err)
	}
	return s, nil
}

// drop locks dir and removes everything in it but the lock file, and
// returns the held lock. To be safe against a wrong dir, it refuses to
// touch anything that does not look like a pebble store: a file, or a
// folder with entries but no file pebble writes first.
func drop(dir string, fsys vfs.FS) (*pebble.Lock, error) {
	info, err := fsys.Stat(dir)
	switch {
	case err == nil && !info.IsDir():
		return nil, fmt.Errorf("%w: it is a file, not a folder; remove it and try again", ErrCorrupt)
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
	if err == nil && !looksLikeStore(names) {
		err = errors.New("refusing to empty a folder that does not look like a projections store")
	}
	for _, name := range names {
		if err != nil {
			break
		}
		if name != lockFile {
			err = fsys.RemoveAll(fsys.PathJoin(dir, name))
		}
	}
	if err != nil {
		lock.Close()
		return nil, fmt.Errorf("drop read models: %w", err)
	}
	return lock, nil
}

// looksLikeStore reports whether the entries of a folder are those of a
// pebble store, or of nothing yet: besides the lock file, which drop has
// just created, there are none, or there is one of the files pebble
// writes when it creates a store.
func looksLikeStore(names []string) bool {
	for _, name := range names {
		for _, prefix := range [...]string{"OPTIONS-", "MANIFEST-", "marker.", "CURRENT"} {
			if strings.HasPrefix(name, prefix) {
				return true
			}
		}
	}
	return len(names) == 0 || len(names) == 1 && names[0] == lockFile
}

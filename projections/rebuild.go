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
	"github.com/clumsies/clumsies/internal/gcpace"
	"github.com/clumsies/clumsies/projections/engine"
)

// lockFile is the name of the lock file pebble keeps in its directory.
// Dropping the store removes everything else, so the lock stays held.
const lockFile = "LOCK"

// Rebuild replaces every read model in dir, whatever state the store is in
// (damaged, or of another layout), by a replay of the whole of log, and
// returns the new store, open.
//
// When dir holds a store, the replay goes into a folder beside it
// (engine.RebuildBeside: dir.new) and replaces dir only once it is
// complete: a rebuild that fails (the log ends early, the disk fills up)
// leaves the old read models as they were. The swap is two renames; a
// crash between them leaves no store at dir, and the next Open starts
// from an empty one, which replays the log.
//
// A rebuild is a bulk job: while it replays, the garbage collector of the
// process runs less often (gcpace.Bulk), for some more memory.
//
// progress, if not nil, is called after each batch with the events
// applied so far and the events the log held when Rebuild started.
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
	held, err := holdsStore(dir, opts.FS)
	if err != nil {
		return nil, fmt.Errorf("rebuild %s: %w", dir, err)
	}
	fill := func(ctx context.Context, target string) error {
		return replay(ctx, log, target, opts, total, progress)
	}
	if held {
		err = engine.RebuildBeside(ctx, opts.FS, dir, fill)
	} else {
		err = fill(ctx, dir)
	}
	if err != nil {
		return nil, fmt.Errorf("rebuild %s: %w", dir, err)
	}
	s, err := Open(dir, opts)
	if err != nil {
		return nil, fmt.Errorf("rebuild %s: open the new read models: %w", dir, err)
	}
	return s, nil
}

// replay drops whatever is in dir and replays log into a new store there,
// written without pebble's log (a rebuild that stops starts again) and
// flushed and closed at the end. It is a bulk job for the collector.
func replay(ctx context.Context, log events.Log, dir string, opts Options, total uint64, progress func(done, total uint64)) error {
	endBulk := gcpace.Bulk()
	defer endBulk()
	lock, err := drop(dir, opts.FS)
	if err != nil {
		return err
	}
	s, err := openLocked(dir, opts, lock, true)
	if err != nil {
		return err
	}
	var report func(uint64)
	if progress != nil {
		progress(0, total)
		report = func(done uint64) { progress(done, max(done, total)) }
	}
	err = s.runner().Pump(ctx, log.Replay, total, report)
	if err == nil {
		err = ctx.Err()
	}
	if err == nil {
		err = s.commitFolded()
	}
	if err == nil {
		err = s.db.Flush() // durable once flushed: there is no log
	}
	if err != nil {
		s.Close()
		return err
	}
	if err := s.Close(); err != nil {
		return fmt.Errorf("close the new read models: %w", err)
	}
	return nil
}

// holdsStore reports whether dir holds a store that a rebuild must keep
// until its replacement is complete. It locks dir to check that nobody has
// it open, and fails as drop does on a file or on a folder that does not
// look like a store.
func holdsStore(dir string, fsys vfs.FS) (bool, error) {
	info, err := fsys.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return false, nil
	case err != nil:
		return false, err
	case !info.IsDir():
		return false, fmt.Errorf("%w: it is a file, not a folder; remove it and try again", ErrCorrupt)
	}
	names, err := fsys.List(dir)
	if err != nil {
		return false, err
	}
	if !looksLikeStore(names) {
		return false, errors.New("refusing to replace a folder that does not look like a projections store")
	}
	lock, err := pebble.LockDirectory(dir, fsys)
	if err != nil {
		return false, fmt.Errorf("%w (is another clumsies process serving this workspace?): %w", ErrLocked, err)
	}
	lock.Close()
	return len(names) > 1 || len(names) == 1 && names[0] != lockFile, nil
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

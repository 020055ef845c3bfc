package engine

import (
	"context"
	"errors"
	"fmt"

	"github.com/cockroachdb/pebble/v2/vfs"
)

// RebuildBeside replaces the store in dir by one that fill builds beside
// it, in dir+".new", so that a rebuild that fails leaves the old store as
// it was. fill gets an empty folder (what an earlier rebuild left there
// is removed first) and must leave a complete store in it, closed and on
// disk. Then the old store goes aside to dir+".old", the new one takes
// its place, the folder holding both is synced and the old one is
// removed.
//
// When fill fails, or moving the old store aside does, dir is untouched
// and the new folder removed. When the new store cannot take its place,
// the old one is put back. A crash between the two renames leaves no
// store in dir (the old one is in dir+".old", removed by the next
// rebuild): a store that opens empty applies its source again. An error
// removing the old store after the swap is returned with the new store in
// place.
func RebuildBeside(ctx context.Context, fsys vfs.FS, dir string, fill func(ctx context.Context, next string) error) error {
	next, old := dir+".new", dir+".old"
	if err := errors.Join(fsys.RemoveAll(next), fsys.RemoveAll(old)); err != nil {
		return fmt.Errorf("remove what an earlier rebuild left: %w", err)
	}
	if err := fsys.MkdirAll(next, 0o755); err != nil {
		return fmt.Errorf("make %s: %w", next, err)
	}
	if err := fill(ctx, next); err != nil {
		return errors.Join(err, removeAll(fsys, next))
	}
	if err := fsys.Rename(dir, old); err != nil {
		return errors.Join(fmt.Errorf("move the old read models aside: %w", err), removeAll(fsys, next))
	}
	if err := fsys.Rename(next, dir); err != nil {
		err = fmt.Errorf("move the new read models into place: %w", err)
		if back := fsys.Rename(old, dir); back != nil {
			return errors.Join(err, fmt.Errorf("put the old read models back from %s: %w", old, back))
		}
		return errors.Join(err, removeAll(fsys, next))
	}
	if err := syncDir(fsys, fsys.PathDir(dir)); err != nil {
		return err
	}
	return removeAll(fsys, old)
}

// removeAll removes path, saying which on an error.
func removeAll(fsys vfs.FS, path string) error {
	if err := fsys.RemoveAll(path); err != nil {
		return fmt.Errorf("remove %s: %w", path, err)
	}
	return nil
}

// syncDir syncs the folder dir, so that the renames in it survive a
// crash.
func syncDir(fsys vfs.FS, dir string) error {
	d, err := fsys.OpenDir(dir)
	if err != nil {
		return fmt.Errorf("open %s to sync it: %w", dir, err)
	}
	if err := errors.Join(d.Sync(), d.Close()); err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	return nil
}

//go:build !unix

package embeddednats

import (
	"errors"
	"fmt"
	"os"
)

// lockFile stands in for the flock-based lock on systems without flock.
type lockFile struct{}

// acquireLock fails: without flock two servers could share one store.
func acquireLock(path string) (*lockFile, error) {
	return nil, fmt.Errorf("lock %s: %w", path, errors.ErrUnsupported)
}

func (l *lockFile) release() error { return nil }

func (l *lockFile) stat() (os.FileInfo, error) { return nil, errors.ErrUnsupported }

// Owner is not supported on this system.
func Owner(dir string) (pid int, locked bool, err error) {
	return 0, false, fmt.Errorf("probe lock in %s: %w", dir, errors.ErrUnsupported)
}

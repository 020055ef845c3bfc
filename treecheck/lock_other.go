//go:build !unix

package treecheck

import (
	"fmt"
	"os"
	"time"
)

// lockFile opens path; where flock does not exist, checks of concurrent
// hooks are not serialised (the last one's snapshot wins).
func lockFile(path string, _ time.Duration) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open the tree lock: %w", err)
	}
	return f, nil
}

func unlock(f *os.File) { f.Close() }

//go:build unix

package node

import (
	"os"
	"syscall"
)

// fileOwner returns the user id owning a file.
func fileOwner(fi os.FileInfo) (int, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return int(st.Uid), true
}

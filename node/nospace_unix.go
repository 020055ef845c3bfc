//go:build unix

package node

import (
	"os"

	"golang.org/x/sys/unix"
)

// freeSpace returns the bytes this process may still write on the file
// system of dir: root may use the blocks reserved for it.
func freeSpace(dir string) (uint64, bool) {
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		return 0, false
	}
	blocks := st.Bavail
	if os.Geteuid() == 0 {
		blocks = st.Bfree
	}
	return blocks * uint64(st.Bsize), true
}

//go:build unix

package content

import (
	"io/fs"
	"syscall"
)

// fileID returns the identity of a file (device and inode) and its number
// of hard links; ok is false when the system does not say.
func fileID(info fs.FileInfo) (id [2]uint64, links uint64, ok bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return id, 0, false
	}
	return [2]uint64{uint64(st.Dev), uint64(st.Ino)}, uint64(st.Nlink), true
}

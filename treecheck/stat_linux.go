//go:build linux

package treecheck

import (
	"io/fs"
	"syscall"
)

// statOf returns what the snapshot compares of a file.
func statOf(info fs.FileInfo) entry {
	e := entry{size: info.Size(), mtime: info.ModTime().UnixNano()}
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		e.ctime = st.Ctim.Nano()
		e.ino = st.Ino
	}
	return e
}

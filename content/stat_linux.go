//go:build linux

package content

import (
	"io/fs"
	"syscall"
)

// statOf returns what the scan index compares of a file: its size,
// modification and change times (nanoseconds) and identity; ok is false
// when the system does not say, and then the file is always read.
func statOf(info fs.FileInfo) (st fileStat, ok bool) {
	sys, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return st, false
	}
	return fileStat{
		size:  info.Size(),
		mtime: info.ModTime().UnixNano(),
		ctime: sys.Ctim.Nano(),
		dev:   uint64(sys.Dev),
		ino:   uint64(sys.Ino),
	}, true
}

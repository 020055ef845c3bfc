//go:build !linux

package treecheck

import "io/fs"

// statOf returns what the snapshot compares of a file: size and
// modification time where the change time and identity are not read.
func statOf(info fs.FileInfo) entry {
	return entry{size: info.Size(), mtime: info.ModTime().UnixNano()}
}

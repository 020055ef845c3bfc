//go:build !linux

package content

import "io/fs"

// statOf reports nothing outside Linux (where the change time is read
// differently, if at all): every file is read at every scan.
func statOf(fs.FileInfo) (fileStat, bool) { return fileStat{}, false }

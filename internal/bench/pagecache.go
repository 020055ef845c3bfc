package main

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// dropFromPageCache writes bin's pages out and drops them from the page
// cache, so that the processes measured next map it as an installed
// binary: a binary linked moments before has every page in the page
// cache as written, and each page fault then maps more of its
// neighbourhood, which read 0.2 MiB more for `clumsies version` and up to
// 3 MiB more of serve's RssFile (BENCHMARKS.md, "Where serve's peak moves
// between runs").
func dropFromPageCache(bin string) error {
	f, err := os.Open(bin)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := f.Sync(); err != nil {
		return fmt.Errorf("write %s out: %w", bin, err)
	}
	if err := unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_DONTNEED); err != nil {
		return fmt.Errorf("drop %s from the page cache: %w", bin, err)
	}
	return nil
}

package main

import (
	"os"
	"path/filepath"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// residentPages counts the pages of name in the page cache.
func residentPages(t *testing.T, name string) int {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, _ := f.Stat()
	mem, err := unix.Mmap(int(f.Fd()), 0, int(st.Size()), unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Munmap(mem)
	vec := make([]byte, (len(mem)+os.Getpagesize()-1)/os.Getpagesize())
	if _, _, errno := unix.Syscall(unix.SYS_MINCORE, uintptr(unsafe.Pointer(&mem[0])), uintptr(len(mem)), uintptr(unsafe.Pointer(&vec[0]))); errno != 0 {
		t.Fatal(errno)
	}
	n := 0
	for _, v := range vec {
		n += int(v & 1)
	}
	return n
}

// TestDropFromPageCache: a file just written has its pages in the page
// cache; dropped, none are left, as for a binary installed long ago.
func TestDropFromPageCache(t *testing.T) {
	name := filepath.Join(t.TempDir(), "bin")
	if err := os.WriteFile(name, make([]byte, 1<<20), 0o755); err != nil {
		t.Fatal(err)
	}
	if n := residentPages(t, name); n == 0 {
		t.Skip("the file system keeps no page of a file just written (tmpfs keeps them all; this one none)")
	}
	if err := dropFromPageCache(name); err != nil {
		t.Fatal(err)
	}
	if n := residentPages(t, name); n != 0 {
		t.Fatalf("%d pages of the file are left in the page cache", n)
	}
}

//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package main

import "golang.org/x/sys/unix"

// isatty reports whether fd is a terminal: whether it answers the request
// for the terminal's attributes.
func isatty(fd uintptr) bool {
	_, err := unix.IoctlGetTermios(int(fd), ioctlGetTermios)
	return err == nil
}

//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly || windows)

package main

// isatty reports no terminal where the terminal's calls are not known.
func isatty(uintptr) bool { return false }

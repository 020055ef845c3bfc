package main

import "golang.org/x/sys/windows"

// isatty reports whether fd is a console.
func isatty(fd uintptr) bool {
	var mode uint32
	return windows.GetConsoleMode(windows.Handle(fd), &mode) == nil
}

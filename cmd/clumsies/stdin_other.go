//go:build !unix

package main

import "io"

// interruptible returns r: elsewhere a signal ends serve by ending the
// process.
func interruptible(r io.Reader) io.Reader { return r }

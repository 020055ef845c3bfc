//go:build !unix

package node

// freeSpace cannot tell here.
func freeSpace(string) (uint64, bool) { return 0, false }

//go:build !linux

package contentwatch

// sharedFS says whether dir is on a network file system: unknown here,
// where there are no notifications and the tree is polled anyway.
func sharedFS(string) bool { return false }

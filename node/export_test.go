package node

// SetChunkSize makes replies of the read service go in chunks of n bytes
// and returns a function that restores the default.
func SetChunkSize(n int) (restore func()) {
	chunkSize = n
	return func() { chunkSize = 0 }
}

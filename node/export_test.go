package node

// SetChunkSize makes replies of the read service go in chunks of n bytes
// and returns a function that restores the default.
func SetChunkSize(n int) (restore func()) {
	chunkSize = n
	return func() { chunkSize = 0 }
}

// ScanRead returns how many content files the last publish scan of n
// opened and hashed.
func ScanRead(n *Node) int {
	n.scanIdx.mu.Lock()
	defer n.scanIdx.mu.Unlock()
	return n.scanIdx.read
}

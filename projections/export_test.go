package projections

// SetChunkSize sets the events per replay of a catch-up until the test
// ends, so that tests reach the parallel path with short ledgers.
func SetChunkSize(tb interface{ Cleanup(func()) }, n uint64) {
	old := chunkSize
	chunkSize = n
	tb.Cleanup(func() { chunkSize = old })
}

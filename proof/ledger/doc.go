// Package ledger proves a workspace's ledger: it recomputes the hash chain
// over the stored messages (events.ChainDigest) and checks it against the
// ledger.checkpoint events, naming the first sequence where they disagree,
// and it writes and reads the export format that carries a ledger, with
// its checkpoints, to another workspace. It imports events and the
// standard library only; the logs it reads and writes are the consumer
// interfaces declared here.
package ledger

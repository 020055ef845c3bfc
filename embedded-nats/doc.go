// Package embeddednats owns the lifecycle of one workspace's NATS server: it
// takes the workspace lock, starts nats-server with JetStream in-process, hands
// out in-process client connections and stops the server again; it must not
// import any clumsies package (only the standard library, nats-server and
// nats.go).
//
// nats-server does not lock its own JetStream store, and two servers writing
// one store silently lose acknowledged messages. A Server therefore takes an
// exclusive flock on <Dir>/owner.lock before nats-server touches the store and
// keeps it until Close. A second Start on the same folder, from this process or
// another one, fails with a *LockedError that names the owner's pid.
//
// Durability is the Server's Sync: SyncAlways lets nats-server fsync every
// message before its ack (one fsync per append, whoever appends);
// SyncGroup has it write every message to its block file before the ack
// and leaves the fsync to the caller's StreamSync, which serves every
// append acknowledged while one fsync runs with the next one (group
// commit); SyncInterval leaves it to nats-server's periodic fsync.
//
// LastBlock returns the process's free heap pages to the system just
// before a stream's last block outgrows nats-server's buffer for it, so
// that the larger buffer does not become resident whole at once.
//
// A Server has no TCP listener unless Listen is set: clients in the same
// process connect through [Server.Connect], which uses an in-process pipe.
package embeddednats

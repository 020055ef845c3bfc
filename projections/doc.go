// Package projections owns the projector, its checkpoint, the read models
// and their rebuild; it imports only events, content, catalog (whose pure
// folds it applies), pebble and the standard library, and nothing that
// serves MCP or runs NATS.
//
// A Store keeps every read model in one pebble database: the manifest of
// published objects, draft state, usage per rule and per constraint,
// sessions, tool metrics and compliance. Each read model is a part: one
// file with its key prefix, its row types, its fold and its reads, behind
// the small internal interface of model.go, and one line of the registry
// (newState). The projector (Apply, Run) turns ledger events into rows and
// writes them together with the checkpoint, the sequence of the last
// applied event, in one batch. The loop that follows the ledger (batches,
// linger, waits) and the commit with its reload are the projection
// engine's (projections/engine, which the hub's read models run on too):
// what is this package's is the decoding of the events and the models. Batches are not synced: after a
// crash rows and checkpoint roll back together and the projector replays
// forward from the ledger, so every event counts exactly once.
//
// Reads are served from memory (the catalog metadata with the ids of the
// constraints, a trigram index of the objects' search texts for memdisc's
// queries, drafts and counters are loaded once at Open and kept current
// by the projector) except object bodies and constraint texts, which
// pebble Gets fetch through a small bounded cache (rowcache.go). Everything here can be thrown away
// and rebuilt from the ledger (Rebuild); Digest proves that a rebuild and
// the live store agree.
package projections

// Package engine is the core of the projection engine that the
// workspace's read models (package projections) and the hub's (package
// hub) share: the contract of a read model, the writer of its rows, the
// registry that hands a model its rows, items and writes, the commit of
// the rows with the checkpoint in one pebble batch and the reload of the
// models after a failed one (Committer), the union of what the models
// declare to their store (Declared), and the runner (Runner) that keeps a
// store current with a source: the feed, the batches, the linger, the
// waits for a sequence (Progress), the retries, the stall watch and the
// start again from a source made again (Behind); and the rebuild of a
// store beside the old one, then the swap (RebuildBeside). One runner
// drives every store: the workspace's, the hub aggregate's projector and
// the hub ledger's read side. It imports only pebble, pebble's vfs and the
// standard library; what an item is (a workspace event, a message of the
// hub's aggregate, an event of the hub's ledger), how it is decoded, what
// a store does with a batch before its commit (the hub's catalog reactor)
// and where the items come from is the store's business.
package engine

// Package engine is the core of the projection engine that the
// workspace's read models (package projections) and the hub's (package
// hub) share: the contract of a read model, the writer of its rows, the
// registry that hands a model its rows, items and writes, the commit of
// the rows with the checkpoint in one pebble batch and the reload of the
// models after a failed one (Committer), the union of what the models
// declare to their store (Declared), and the runner (Runner) that keeps a
// store current with a source: the feed, the batches, the linger, the
// waits for a sequence (Progress), the retries and the stall watch; and
// the rebuild of a store beside the old one, then the swap
// (RebuildBeside). It imports only pebble, pebble's vfs and the standard
// library; what an item is (a workspace event, a message of the hub's
// aggregate), how it is decoded and where it comes from is the store's
// business.
package engine

// Package engine is the core of the projection engine that the
// workspace's read models (package projections) and the hub's (package
// hub) share: the contract of a read model, the writer of its rows, the
// registry that hands a model its rows, items and writes, the commit
// of the rows with the checkpoint in one pebble batch, and the union of
// what the models declare to their store (Declared). It imports only
// pebble and the standard library; what an item is (a workspace event, a
// message of the hub's aggregate) is the store's business.
package engine

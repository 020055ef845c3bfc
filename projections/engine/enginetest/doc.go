// Package enginetest holds the conformance suite that every read model of
// the projection engine (engine.Model) must pass, in the workspace's store
// and in the hub's alike: batch invariance, reload after a failed commit,
// write-then-load equality, rows only under the model's prefixes, prefixes
// that no other model shares, deterministic Apply. A store runs it over
// its own models and item sequences (Run). CheckDeclared checks that each
// model declares every kind of item whose payload it reads, as a store's
// decoder decodes only those (engine.Declared). It imports only
// projections/engine, pebble and the standard library.
package enginetest

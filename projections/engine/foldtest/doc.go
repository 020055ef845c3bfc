// Package foldtest checks, for the tests of a store's read models (the
// workspace's in projections, the hub's in hub), that every model names
// in Folds each event type whose payload it reads, since the store's
// decoder decodes only the payloads its models name. It reads the fold
// cases of projections/testdata/fold as the events to fold. It imports
// the projection engine, events, content, pebble, txtar and the standard
// library.
package foldtest

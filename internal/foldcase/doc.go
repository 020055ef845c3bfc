// Package foldcase reads the data-driven fold cases of the read models
// (projections/testdata/fold, hub/testdata/fold): txtar files whose
// "events" section holds one JSON line per event (# comments allowed) and
// whose "want" section holds what the read models answer after them. It
// is for tests only, and imports golang.org/x/tools/txtar and the
// standard library.
package foldcase

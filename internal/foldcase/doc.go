// Package foldcase reads the data-driven fold cases of the read models
// (projections/testdata/fold, hub/testdata/fold): txtar files whose
// "events" section holds one JSON line per event (# comments allowed) and
// whose "want" section holds what the read models answer after them. It
// owns the line format of the workspace's cases (Line) and the events
// they stand for (Events), made as the workspace's tests make theirs
// (NewEvent), for every test that folds them: the workspace's fold,
// conformance and declared-folds tests, and the hub's declared-folds
// test. The hub's own cases have their own line format (hub tests). It
// is for tests only, and imports events, content,
// golang.org/x/tools/txtar and the standard library.
package foldcase

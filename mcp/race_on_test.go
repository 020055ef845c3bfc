//go:build race

package mcp

// raceEnabled is true under the race detector, whose sync.Pool drops a
// quarter of what it is given: the tests of pooled garbage then skip.
const raceEnabled = true

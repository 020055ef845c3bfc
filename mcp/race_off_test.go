//go:build !race

package mcp

// raceEnabled is true under the race detector (race_on_test.go).
const raceEnabled = false

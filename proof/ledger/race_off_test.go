//go:build !race

package ledger_test

// raceEnabled is true under the race detector (race_on_test.go).
const raceEnabled = false

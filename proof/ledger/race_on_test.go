//go:build race

package ledger_test

// raceEnabled is true under the race detector, which slows the big
// export-import test about tenfold: it then moves fewer events.
const raceEnabled = true

//go:build race

package hubtest

import "testing"

// SkipUnderRace skips a test that joins nodes when the race detector is
// on: nats-server v2.15.2's config reload reads live accounts without
// their locks (see hub/race_test.go).
func SkipUnderRace(tb testing.TB) {
	tb.Helper()
	tb.Skip("nats-server's reload reads live accounts without their locks (see hub/race_test.go); run without -race")
}

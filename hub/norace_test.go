//go:build !race

package hub_test

import "testing"

// skipUnderRace does nothing without the race detector; see race_test.go.
func skipUnderRace(testing.TB) {}

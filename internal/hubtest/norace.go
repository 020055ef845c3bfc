//go:build !race

package hubtest

import "testing"

// SkipUnderRace does nothing without the race detector; see race.go.
func SkipUnderRace(testing.TB) {}

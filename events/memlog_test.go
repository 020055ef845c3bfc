package events_test

import (
	"testing"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/events/eventstest"
)

func TestMemoryLog(t *testing.T) {
	eventstest.Run(t, func(t *testing.T) events.Log { return events.NewMemoryLog() })
}

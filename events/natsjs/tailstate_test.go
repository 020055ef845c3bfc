package natsjs

import (
	"testing"

	"github.com/clumsies/clumsies/events"
)

// The stream's check is tried only for the remembered event, and only
// while nothing acknowledged to the Log came after it.
func TestTail_OnlyWhileNewest(t *testing.T) {
	var tl tail
	drafts, cat := events.AggregateDrafts.Subjects("ws-a"), events.AggregateCatalog.Subjects("ws-a")
	if tl.is(drafts, 5) {
		t.Fatal("an empty tail names an event")
	}
	tl.acked(5)
	tl.set(drafts, 5)
	if !tl.is(drafts, 5) {
		t.Fatal("the event just appended is not the tail")
	}
	if tl.is(cat, 5) || tl.is(drafts, 4) {
		t.Fatal("the tail names another aggregate's or another sequence's event")
	}
	tl.acked(3) // a retry's original sequence moves nothing
	if !tl.is(drafts, 5) {
		t.Fatal("an older acknowledgement hid the tail")
	}
	tl.acked(6)
	if tl.is(drafts, 5) {
		t.Fatal("the tail is tried after another append came after it")
	}
}

package hub

import (
	"testing"
	"time"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// TestKickConfirms follows three kicked links: one whose source hears
// from its node after the kick (forgotten), one that is replaced by a
// new link (forgotten: the new link is kicked on its own), and one never
// answered, kicked again after 2 s, then every 4 s, kickTries times in
// all, then left to nats-server.
func TestKickConfirms(t *testing.T) {
	c := newKickConfirms()
	t0 := time.Date(2026, 11, 29, 8, 0, 0, 0, time.UTC)
	conns := map[string]uint64{"n-a": 1, "n-b": 2, "n-c": 3}
	current := func(id string) uint64 { return conns[id] }
	c.kicked(map[string]uint64{"n-a": 1, "n-b": 2, "n-c": 3}, t0)
	if !c.due(t0.Add(confirmEvery)) {
		t.Fatal("no check due a second after the kicks")
	}
	// A heartbeat before the kick does not answer it.
	stale := map[string]hubwire.Sourcing{apiPrefix("n-a"): {Active: 3 * time.Second}, apiPrefix("n-c"): {Active: -1}}
	if again := c.check(t0.Add(time.Second), stale, current); len(again) != 0 || len(c.waiting) != 3 {
		t.Fatalf("a second after the kicks: again %v, waiting %d; want none again, 3 waiting", again, len(c.waiting))
	}
	if c.due(t0.Add(time.Second + confirmEvery/2)) {
		t.Fatal("a check due half a second after the last")
	}
	conns["n-b"] = 9
	fresh := map[string]hubwire.Sourcing{apiPrefix("n-a"): {Active: 500 * time.Millisecond}, apiPrefix("n-c"): {Active: -1}}
	again := c.check(t0.Add(2*time.Second), fresh, current)
	if _, ok := c.waiting["n-a"]; ok {
		t.Error("n-a's source heard from it after the kick, yet it waits")
	}
	if _, ok := c.waiting["n-b"]; ok {
		t.Error("n-b's link was replaced, yet its old kick waits")
	}
	if len(again) != 1 || again["n-c"] != 3 {
		t.Fatalf("2 s after the kicks: again %v, want n-c on connection 3", again)
	}
	at, kicks := t0.Add(2*time.Second), 2
	for ; kicks < kickTries; kicks++ {
		c.kicked(again, at)
		if again = c.check(at.Add(rekickMax-time.Millisecond), fresh, current); len(again) != 0 {
			t.Fatalf("kick %d of n-c: kicked again before %s", kicks, rekickMax)
		}
		at = at.Add(rekickMax)
		if again = c.check(at, fresh, current); again["n-c"] != 3 {
			t.Fatalf("kick %d of n-c: not kicked again after %s (%v)", kicks, rekickMax, again)
		}
	}
	c.kicked(again, at)
	if again = c.check(at.Add(rekickMax), fresh, current); len(again) != 0 || len(c.waiting) != 0 {
		t.Fatalf("after %d kicks: again %v, waiting %d; want n-c left to nats-server", kickTries, again, len(c.waiting))
	}
}

package mcp

import (
	"testing"
	"time"
)

// TestOpenWait checks that a call made while the workspace is still
// opening (Config.Ready not closed) records the wait apart, in openWaitUs,
// and only its own time in durationUs; a call made once it is open
// records no wait.
func TestOpenWait(t *testing.T) {
	ready := make(chan struct{})
	e := newEnv(t, envOptions{ready: ready})
	c := e.connect()
	const wait = 2 * time.Second
	go func() {
		time.Sleep(wait)
		close(ready)
	}()
	setup(t, c, "host-open-wait")
	mustOK(t, c, "memdisc", map[string]any{})
	evs := e.toolEvents()
	if len(evs) != 2 {
		t.Fatalf("got %d tool events, want 2", len(evs))
	}
	first, second := evs[0], evs[1]
	if first.OpenWaitUs < (wait / 2).Microseconds() {
		t.Errorf("the call made while opening: openWaitUs %d, want the wait (about %d)", first.OpenWaitUs, wait.Microseconds())
	}
	if first.DurationUs >= (wait / 2).Microseconds() {
		t.Errorf("the call made while opening: durationUs %d holds the wait of %s", first.DurationUs, wait)
	}
	if second.OpenWaitUs != 0 {
		t.Errorf("the call made once open: openWaitUs %d, want none", second.OpenWaitUs)
	}
}

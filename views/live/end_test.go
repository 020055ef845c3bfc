package live_test

import (
	"runtime"
	"testing"
	"time"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/views/live"
)

// waitServed fails tb unless a request of ts ends within the wait.
func waitServed(tb testing.TB, ts *testServer) {
	tb.Helper()
	select {
	case <-ts.served:
	case <-time.After(wait):
		tb.Fatal("handler still running, want it to have returned")
	}
}

func TestHandler_End(t *testing.T) {
	t.Run("ClientDisconnects", func(t *testing.T) {
		log := events.NewMemoryLog()
		ts := newServer(t, log, live.Options{})
		before := runtime.NumGoroutine()
		for range 5 {
			s := open(t, ts.URL+"?from=1", nil)
			appendEvent(t, log, events.TypeRefer)
			s.nextEvent(t)
			s.close()
			waitServed(t, ts)
		}
		// The handler waits for its subscription before returning; what is
		// left over settles back to where it was.
		settle(t, before)
	})

	t.Run("Shutdown", func(t *testing.T) {
		ts := newServer(t, events.NewMemoryLog(), live.Options{})
		s := open(t, ts.URL, nil)
		ts.stop()
		waitServed(t, ts)
		select {
		case _, ok := <-s.msgs:
			if ok {
				t.Errorf("got a message after shutdown, want the stream to end")
			}
		case <-time.After(wait):
			t.Errorf("stream still open after shutdown, want it ended")
		}
	})
}

// settle fails tb unless the number of goroutines drops to at most n
// within the wait.
func settle(tb testing.TB, n int) {
	tb.Helper()
	deadline := time.Now().Add(wait)
	for {
		got := runtime.NumGoroutine()
		if got <= n {
			return
		}
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			buf = buf[:runtime.Stack(buf, true)]
			tb.Fatalf("got %d goroutines, want at most %d:\n%s", got, n, buf)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

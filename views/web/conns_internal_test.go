package web

import (
	"net"
	"testing"
	"time"
)

// TestConnLimiter_OldestIdleFirst: with every slot taken, a new
// connection closes the one idle the longest, not the oldest, and never a
// busy one; with none idle it is refused.
func TestConnLimiter_OldestIdleFirst(t *testing.T) {
	l := newConnLimiter(nil, Limits{MaxConns: 3})
	t0 := time.Now()
	conn := func(name string) *limitedConn {
		a, b := net.Pipe()
		t.Cleanup(func() { a.Close(); b.Close() })
		return &limitedConn{Conn: a, l: l, client: name}
	}
	first, second, third := conn("x"), conn("x"), conn("y")
	for i, c := range []*limitedConn{first, second, third} {
		if ok, evict := l.admit(c, t0.Add(time.Duration(i)*time.Second)); !ok || len(evict) != 0 {
			t.Fatalf("admit connection %d of 3: %v %v", i, ok, evict)
		}
	}
	// first serves a request; second went idle after third did.
	first.idleSince = time.Time{}
	third.idleSince = t0.Add(3 * time.Second)
	second.idleSince = t0.Add(4 * time.Second)
	ok, evict := l.admit(conn("z"), t0.Add(5*time.Second))
	if !ok || len(evict) != 1 || evict[0] != third {
		t.Fatalf("admit with every slot taken: %v, evicted %v; want the one idle the longest (%p)", ok, evict, third)
	}
	second.idleSince = time.Time{}
	for c := range l.conns {
		c.idleSince = time.Time{}
	}
	if ok, evict := l.admit(conn("z"), t0.Add(6*time.Second)); ok || len(evict) != 0 {
		t.Fatalf("admit with every slot busy: %v, evicted %v; want refused", ok, evict)
	}
}

package live

import (
	"net"
	"net/http"
	"sync"
)

// clients bounds the streams of each client, so that one client cannot
// hold every slot. A client is the IP address a request comes from.
type clients struct {
	max int
	mu  sync.Mutex
	n   map[string]int
}

func newClients(max int) *clients { return &clients{max: max, n: map[string]int{}} }

// take claims a stream for key and reports whether key had one left.
func (c *clients) take(key string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n[key] >= c.max {
		return false
	}
	c.n[key]++
	return true
}

// give frees a stream claimed by take.
func (c *clients) give(key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n[key]--; c.n[key] <= 0 {
		delete(c.n, key)
	}
}

// clientKey returns the client a request counts against: the host part of
// its remote address.
func clientKey(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

package hubtest

import (
	"net/http/httptest"
	"testing"

	"github.com/clumsies/clumsies/hub"
)

// API serves th's HTTP API on a loopback port until the test ends, and
// returns its URL and the hub's admin token.
func (th *Hub) API(tb testing.TB) (url, adminToken string) {
	tb.Helper()
	token, err := th.Cfg.AdminToken()
	if err != nil {
		tb.Fatal(err)
	}
	srv := httptest.NewServer(hub.Handler(th.H, token))
	tb.Cleanup(srv.Close)
	return srv.URL, token
}

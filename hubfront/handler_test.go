package hubfront_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/hubfront"
	"github.com/clumsies/clumsies/internal/hubtest"
)

// newFront serves the front of a new hub until the test ends, and
// returns it with the hub's admin token.
func newFront(t *testing.T) (*httptest.Server, string) {
	t.Helper()
	_, srv, admin := newHubFront(t)
	return srv, admin
}

// newHubFront is newFront that returns the hub too.
func newHubFront(t *testing.T) (*hubtest.Hub, *httptest.Server, string) {
	t.Helper()
	th := hubtest.NewHub(t)
	admin, err := th.Cfg.AdminToken()
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(hubfront.Handler(th.H, admin, false, nil, "test"))
	t.Cleanup(srv.Close)
	return th, srv, admin
}

// get requests path of srv with token as its bearer token ("" for none).
func get(t *testing.T, srv *httptest.Server, path, token string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, srv.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(b)
}

// The hub's front: /metrics answers the admin token only, saying which
// token it wants; the API behind it checks its own tokens; the dashboard
// page is served; every answer is hardened.
func TestHandler(t *testing.T) {
	srv, admin := newFront(t)

	for _, token := range []string{"", "not-the-admin"} {
		resp, body := get(t, srv, "/metrics", token)
		if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(resp.Header.Get("WWW-Authenticate"), "Bearer") || !strings.Contains(body, "admin token") {
			t.Errorf("/metrics with token %q: %d %q, want 401 naming the admin token", token, resp.StatusCode, body)
		}
	}
	resp, body := get(t, srv, "/metrics", admin)
	if resp.StatusCode != http.StatusOK || !strings.Contains(body, "go_goroutines") {
		t.Errorf("/metrics with the admin token: %d, want 200 with the metrics", resp.StatusCode)
	}
	if resp, _ := get(t, srv, "/api/nodes", admin); resp.StatusCode != http.StatusOK {
		t.Errorf("/api/nodes with the admin token: %d, want 200", resp.StatusCode)
	}
	if resp, _ := get(t, srv, "/api/nodes", "not-the-admin"); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("/api/nodes with a wrong token: %d, want 401", resp.StatusCode)
	}
	resp, _ = get(t, srv, "/", "")
	if resp.StatusCode != http.StatusOK || resp.Header.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("the dashboard: %d, nosniff %q; want 200, hardened", resp.StatusCode, resp.Header.Get("X-Content-Type-Options"))
	}
}

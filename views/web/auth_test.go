package web_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/views/web"
)

const token = "s3cret-token"

func TestHandler_Token(t *testing.T) {
	b := newBackend(t)
	ts := b.serve(t, token)
	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	mcpHeaders := func(auth string) map[string]string {
		h := map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
		if auth != "" {
			h["Authorization"] = auth
		}
		return h
	}

	for _, tc := range []struct {
		name, auth string
		wantError  bool // the challenge says invalid_token
	}{
		{"Missing", "", false},
		{"WrongToken", "Bearer nope", true},
		{"TokenPrefix", "Bearer " + token[:4], true},
		{"TokenLonger", "Bearer " + token + "x", true},
		{"OtherScheme", "Basic " + token, false},
		{"NoToken", "Bearer ", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, req := range []struct{ method, path, body string }{
				{http.MethodPost, "/mcp", initialize},
				{http.MethodGet, "/events", ""},
				{http.MethodGet, "/nowhere", ""},
			} {
				resp, body := do(t, req.method, ts.URL+req.path, mcpHeaders(tc.auth), req.body)
				if resp.StatusCode != http.StatusUnauthorized {
					t.Fatalf("%s %s: got status %d (%s), want 401", req.method, req.path, resp.StatusCode, body)
				}
				challenge := resp.Header.Get("WWW-Authenticate")
				if !strings.HasPrefix(challenge, "Bearer") {
					t.Errorf("%s %s: got WWW-Authenticate %q, want a Bearer challenge", req.method, req.path, challenge)
				}
				if got := strings.Contains(challenge, `error="invalid_token"`); got != tc.wantError {
					t.Errorf("%s %s: got WWW-Authenticate %q, want invalid_token %v", req.method, req.path, challenge, tc.wantError)
				}
				if strings.Contains(body, token) {
					t.Errorf("%s %s: the body %q shows the token", req.method, req.path, body)
				}
			}
		})
	}

	t.Run("RightToken", func(t *testing.T) {
		c := connect(t, ts.URL+"/mcp", token)
		c.mustTool("memsetup", setupArgs("token-1"))
		s := openEvents(t, ts.URL+"/events?type=attest.setup&from=1", map[string]string{"Authorization": "bearer " + token})
		if _, ev := s.nextEvent(t); ev.SessionID != "token-1" {
			t.Fatalf("got event of session %q, want token-1", ev.SessionID)
		}
		resp, body := get(t, ts.URL+"/nowhere", map[string]string{"Authorization": "Bearer " + token})
		if resp.StatusCode != http.StatusNotFound {
			t.Fatalf("GET /nowhere with the token: got %d (%s), want 404", resp.StatusCode, body)
		}
	})

	t.Run("HealthzNeedsNone", func(t *testing.T) {
		resp, body := get(t, ts.URL+"/healthz", nil)
		if resp.StatusCode != http.StatusOK || body != "ok\n" {
			t.Fatalf("GET /healthz: got %d %q, want 200 \"ok\\n\"", resp.StatusCode, body)
		}
	})
}

func TestHandler_Routes(t *testing.T) {
	b := newBackend(t)
	ts := b.serve(t, "")
	for _, tc := range []struct {
		method, path string
		want         int
	}{
		{http.MethodGet, "/healthz", http.StatusOK},
		{http.MethodHead, "/healthz", http.StatusOK},
		{http.MethodPost, "/healthz", http.StatusMethodNotAllowed},
		{http.MethodGet, "/", http.StatusNotFound},
		{http.MethodGet, "/mcp/x", http.StatusNotFound},
		{http.MethodGet, "/events/x", http.StatusNotFound},
		{http.MethodGet, "/metrics", http.StatusNotFound},
		{http.MethodDelete, "/events", http.StatusMethodNotAllowed},
	} {
		resp, body := do(t, tc.method, ts.URL+tc.path, nil, "")
		if resp.StatusCode != tc.want {
			t.Errorf("%s %s: got %d (%s), want %d", tc.method, tc.path, resp.StatusCode, body, tc.want)
		}
	}

	t.Run("Unrouted", func(t *testing.T) {
		bare := b.options("")
		bare.MCP, bare.Events = nil, nil
		ln := mustListen(t, "127.0.0.1:0", "")
		srv := &http.Server{Handler: web.Handler(bare)}
		go srv.Serve(ln)
		t.Cleanup(func() { srv.Close() })
		for _, path := range []string{"/mcp", "/events"} {
			if resp, body := get(t, "http://"+ln.Addr().String()+path, nil); resp.StatusCode != http.StatusNotFound {
				t.Errorf("GET %s without its handler: got %d (%s), want 404", path, resp.StatusCode, body)
			}
		}
	})
}

// TestHandler_Host checks the DNS-rebinding guard: a loopback server
// answers only requests that name a loopback host.
func TestHandler_Host(t *testing.T) {
	ts := newBackend(t).serve(t, "")
	port := ts.URL[strings.LastIndex(ts.URL, ":"):]
	for _, tc := range []struct {
		host string
		want int
	}{
		{"evil.example" + port, http.StatusForbidden},
		{"evil.example", http.StatusForbidden},
		{"192.168.1.10" + port, http.StatusForbidden},
		{"localhost" + port, http.StatusOK},
		{"127.0.0.1" + port, http.StatusOK},
		{"[::1]" + port, http.StatusOK},
	} {
		status, body := statusOf(t, ts.URL+"/events?from=1&type=catalog", map[string]string{"Host": tc.host})
		if status != tc.want {
			t.Errorf("Host %s: got %d (%s), want %d", tc.host, status, body, tc.want)
		}
		if tc.want == http.StatusForbidden && !strings.Contains(body, "not localhost") {
			t.Errorf("Host %s: got body %q, want it to say why", tc.host, body)
		}
	}
	// The health check answers whatever the Host.
	if resp, body := get(t, ts.URL+"/healthz", map[string]string{"Host": "evil.example"}); resp.StatusCode != http.StatusOK {
		t.Errorf("GET /healthz with Host evil.example: got %d (%s), want 200", resp.StatusCode, body)
	}
}

// TestHandler_TokenCookie checks the browser's way in: ?token= once sets
// the cookie and redirects without it; the cookie then opens GETs, not a
// tool call.
func TestHandler_TokenCookie(t *testing.T) {
	b := newBackend(t)
	ts := b.serve(t, token)
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := noFollow.Get(ts.URL + "/events?type=attest.refer&token=" + token)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	cookies := resp.Cookies()
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/events?type=attest.refer" || len(cookies) != 1 ||
		!cookies[0].HttpOnly || cookies[0].SameSite != http.SameSiteStrictMode {
		t.Fatalf("GET with ?token=: %d to %q, cookies %v; want 303 to the URL without it and an HttpOnly, SameSite=Strict cookie",
			resp.StatusCode, resp.Header.Get("Location"), cookies)
	}
	if resp, err := noFollow.Get(ts.URL + "/events?token=nope"); err != nil || resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("GET with a wrong ?token=: %v %v, want 401", resp.StatusCode, err)
	}
	withCookie := func(method, path, body string) int {
		req, _ := http.NewRequest(method, ts.URL+path, strings.NewReader(body))
		req.AddCookie(cookies[0])
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if code := withCookie(http.MethodGet, "/nowhere", ""); code != http.StatusNotFound {
		t.Errorf("GET with the cookie: %d, want through to 404", code)
	}
	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	if code := withCookie(http.MethodPost, "/mcp", initialize); code != http.StatusUnauthorized {
		t.Errorf("POST /mcp with the cookie only: %d, want 401", code)
	}
}
